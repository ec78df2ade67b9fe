/**
 * The real service for client-side tests (SDK, MCP server): the built apps/api/dist/main.js as a
 * child process in dev mode (its own anvil chain with real settlement), on its own PostgreSQL
 * database, BullMQ prefix and data directory, all removed by stop().
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import pg from 'pg';

const API_DIST = fileURLToPath(new URL('../../../apps/api/dist/', import.meta.url));
const POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

export interface DevChainFacts {
  rpcUrl: string;
  chainId: number;
  network: string;
  usdc: `0x${string}`;
  payTo: `0x${string}`;
  payerAddress: `0x${string}`;
  payerPrivateKey: `0x${string}`;
}

export interface LiveService {
  baseUrl: string;
  databaseUrl: string;
  devChain: DevChainFacts;
  output(): string;
  /** A key API key made by the real CLI (`apikey create`). */
  createApiKey(name: string): string;
  stop(): Promise<void>;
}

export async function startLiveService(env: Record<string, string> = {}): Promise<LiveService> {
  if (!existsSync(join(API_DIST, 'main.js'))) throw new Error(`${API_DIST}main.js is missing: build the api first (npx nx run api:build)`);
  const database = `fileshift_client_${randomBytes(6).toString('hex')}`;
  await adminQuery(`CREATE DATABASE "${database}"`);
  const databaseUrl = Object.assign(new URL(POSTGRES_URL), { pathname: `/${database}` }).toString();
  const dataDir = mkdtempSync(join(tmpdir(), 'fileshift-client-test-'));
  const prefix = `fsclient-${randomBytes(5).toString('hex')}`;
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [join(API_DIST, 'main.js')], {
    env: {
      PATH: process.env.PATH ?? '',
      DATABASE_URL: databaseUrl,
      REDIS_URL,
      QUEUE_PREFIX: prefix,
      DATA_DIR: dataDir,
      PORT: String(port),
      LOG_LEVEL: 'warn',
      X402_RATE_LIMIT_PER_MINUTE: '100000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const baseUrl = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
    await adminQuery(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    await dropRedisKeys(prefix);
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}:\n${output}`);
      const ready = await fetch(`${baseUrl}/api/x402/v1/health/ready`).then((r) => r.ok, () => false);
      if (ready) break;
      if (Date.now() > deadline) throw new Error(`the service did not become ready:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const wellKnown = (await (await fetch(`${baseUrl}/.well-known/x402.json`)).json()) as { devChain: DevChainFacts };
    return {
      baseUrl,
      databaseUrl,
      devChain: wellKnown.devChain,
      output: () => output,
      createApiKey(name) {
        const run = spawnSync(process.execPath, [join(API_DIST, 'apikey.js'), 'create', '--name', name], { env: { PATH: process.env.PATH, DATABASE_URL: databaseUrl }, encoding: 'utf8' });
        const key = /\(shown once, store it now\): (fsk_\S+)/.exec(run.stdout)?.[1];
        if (!key) throw new Error(`apikey create failed: ${run.stderr}`);
        return key;
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

async function dropRedisKeys(prefix: string): Promise<void> {
  const redis = new Redis(REDIS_URL);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

/** A TCP port free on 127.0.0.1 right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
