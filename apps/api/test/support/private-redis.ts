import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { acceptsConnections } from './accepts-connections.js';
import { findOnPath } from './find-on-path.js';
import { startOrphanReaper } from './orphan-reaper.js';
import { spawnServerChild, type ServerChild } from './server-child.js';
import { freePort } from './service-process.js';

/** A redis-server of one test alone, so the test can kill it and start it again (fault injection). */
export interface PrivateRedis {
  /** redis://127.0.0.1:PORT */
  readonly url: string;
  readonly port: number;
  /** Its working directory; removed by stop(). */
  readonly dir: string;
  /** SIGKILL; resolves once the port refuses connections. */
  kill(): Promise<void>;
  /** Starts it again on the same port, empty (nothing is persisted). */
  start(): Promise<void>;
  /** Kills it and removes its directory. */
  stop(): Promise<void>;
}

const READY_TIMEOUT_MS = 10_000;
const PORT_CLOSED_TIMEOUT_MS = 5_000;

export async function startPrivateRedis(): Promise<PrivateRedis> {
  const redisServer = findOnPath('redis-server');
  if (!redisServer) {
    throw new Error('redis-server is not on PATH: install the Debian package redis-server (bash tools/engines/ensure-debian-packages.sh, which npm test runs)');
  }
  const port = await freePort();
  const dir = await mkdtemp(join(tmpdir(), 'fileshift-redis-'));
  const reaper = startOrphanReaper(dir);
  let server: ServerChild | undefined;
  const removeAll = async () => {
    await rm(dir, { recursive: true, force: true });
    await reaper.dispose();
  };

  const start = async () => {
    if (server?.isRunning()) throw new Error(`the private redis-server on port ${port} is already running`);
    server = await spawnServerChild({
      name: `redis-server on port ${port}`,
      command: redisServer,
      args: ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--daemonize', 'no'],
      cwd: dir,
      env: { PATH: process.env.PATH ?? '' },
      reaper,
    });
    await server.waitUntilReady(() => answersPing(port), READY_TIMEOUT_MS);
  };
  const kill = async () => {
    await server?.stop('SIGKILL');
    const deadline = Date.now() + PORT_CLOSED_TIMEOUT_MS;
    while (await acceptsConnections(port)) {
      if (Date.now() > deadline) throw new Error(`port ${port} still accepts connections after the private redis-server was killed`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  try {
    await start();
  } catch (error) {
    await server?.stop('SIGKILL');
    await removeAll();
    throw error;
  }

  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    dir,
    kill,
    start,
    async stop() {
      try {
        await kill();
      } finally {
        await removeAll();
      }
    },
  };
}

/** One RESP PING on a fresh connection; true when the server answers +PONG. */
function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' });
    let reply = '';
    const done = (answered: boolean) => {
      socket.destroy();
      resolve(answered);
    };
    socket.setTimeout(1_000, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      reply += chunk.toString();
      if (reply.includes('\r\n')) done(reply.startsWith('+PONG'));
    });
  });
}
