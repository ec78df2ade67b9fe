import { execFile, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { statSync } from 'node:fs';
import { chown, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { startOrphanReaper } from './orphan-reaper.js';
import { findPostgresBinaries } from './postgres-binaries.js';
import { spawnServerChild, type ServerChild } from './server-child.js';
import { freePort } from './service-process.js';

/** A PostgreSQL server of one test alone, in a throwaway data directory, that the test can restart (fault injection). */
export interface PrivatePostgres {
  /** postgres://postgres@127.0.0.1:PORT/postgres (trust authentication) */
  readonly url: string;
  readonly port: number;
  /** Holds the data directory and the unix socket; removed by stop(). */
  readonly dir: string;
  /** Creates a database (a random name by default) and returns its URL. */
  createDatabase(name?: string): Promise<string>;
  /** Shuts down ('fast': clean, sessions ended; 'immediate': no checkpoint, crash recovery on start), then starts again on the same port and data. */
  restart(mode?: 'fast' | 'immediate'): Promise<void>;
  /** Fast shutdown, then removes the directory. */
  stop(): Promise<void>;
}

interface ServerUser {
  uid: number;
  gid: number;
}

const READY_TIMEOUT_MS = 30_000;
const SHUTDOWN_GRACE_MS = 30_000;
const SHUTDOWN_SIGNAL = { fast: 'SIGINT', immediate: 'SIGQUIT' } as const;
const DATABASE_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const binaries = findPostgresBinaries();
  const user = serverUser();
  const port = await freePort();
  const dir = await mkdtemp(join(tmpdir(), 'fileshift-postgres-'));
  const dataDir = join(dir, 'data');
  const socketDir = join(dir, 'socket');
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  // A commit still writes its WAL to the OS page cache, so fsync=off loses nothing when a test
  // kills processes (only a machine crash would), and keeps the server fast.
  const serverArgs = ['-D', dataDir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', `unix_socket_directories=${socketDir}`, '-c', 'fsync=off'];
  const env = { PATH: process.env.PATH ?? '', LC_ALL: 'C' };
  const reaper = startOrphanReaper(dir);
  let server: ServerChild | undefined;
  const removeAll = async () => {
    await rm(dir, { recursive: true, force: true });
    await reaper.dispose();
  };

  const start = async () => {
    server = await spawnServerChild({ name: `postgres on port ${port}`, command: binaries.postgres, args: serverArgs, cwd: dir, env, ...user, reaper });
    await server.waitUntilReady(() => acceptsQueries(url), READY_TIMEOUT_MS);
  };

  try {
    await mkdir(socketDir, { mode: 0o700 });
    if (user) {
      assertOthersCanTraverse(dirname(dir));
      await chown(dir, user.uid, user.gid);
      await chown(socketDir, user.uid, user.gid);
    }
    // The C locale exists everywhere (C.UTF-8 does not); the encoding is UTF8 all the same.
    await promisify(execFile)(binaries.initdb, ['-D', dataDir, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync'], { cwd: dir, env, ...user }).catch(
      (error: { message: string; stdout?: string; stderr?: string }) => {
        throw new Error(`initdb failed: ${error.message}\n${error.stdout ?? ''}${error.stderr ?? ''}`);
      },
    );
    await start();
  } catch (error) {
    await server?.stop('SIGKILL');
    await removeAll();
    throw error;
  }

  return {
    url,
    port,
    dir,
    async createDatabase(name = `test_${randomBytes(6).toString('hex')}`) {
      if (!DATABASE_NAME.test(name)) throw new Error(`not a plain database name: ${JSON.stringify(name)}`);
      await query(url, `CREATE DATABASE "${name}"`);
      return `postgres://postgres@127.0.0.1:${port}/${name}`;
    },
    async restart(mode = 'fast') {
      await server?.stop(SHUTDOWN_SIGNAL[mode], SHUTDOWN_GRACE_MS);
      await start();
    },
    async stop() {
      try {
        await server?.stop(SHUTDOWN_SIGNAL.fast, SHUTDOWN_GRACE_MS);
      } finally {
        await removeAll();
      }
    },
  };
}

/** initdb and postgres refuse to run as root: as root, run them as the postgres system user. */
function serverUser(): ServerUser | undefined {
  if (process.getuid?.() !== 0) return undefined;
  try {
    const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    throw new Error('running as root, where initdb and postgres refuse to run, and there is no postgres system user to run them as (the Debian package postgresql creates it)');
  }
}

/** The postgres user must reach the temporary directory through every directory above it. */
function assertOthersCanTraverse(path: string): void {
  for (let dir = path; ; dir = dirname(dir)) {
    if ((statSync(dir).mode & 0o001) === 0) {
      throw new Error(`the postgres user cannot traverse ${dir} to reach its data directory: point TMPDIR elsewhere (e.g. /tmp)`);
    }
    if (dirname(dir) === dir) return;
  }
}

async function acceptsQueries(url: string): Promise<boolean> {
  await query(url, 'SELECT 1');
  return true;
}

async function query(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  client.on('error', () => undefined); // a server going away mid-query rejects the query; nothing more to report
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end().catch(() => undefined);
  }
}
