import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { acceptsConnections } from './support/accepts-connections.js';
import { startPrivatePostgres } from './support/private-postgres.js';
import { startPrivateRedis } from './support/private-redis.js';
import { waitFor } from './support/service-process.js';

const SUPPORT_DIR = fileURLToPath(new URL('./support/', import.meta.url));

/** Starts both servers in another Node process that then dies by SIGKILL, with no chance to clean up. */
async function serversOfAKilledProcess(): Promise<{ redis: { port: number; dir: string }; postgres: { port: number; dir: string } }> {
  const script = `
    import { startPrivatePostgres } from ${JSON.stringify(`${SUPPORT_DIR}private-postgres.ts`)};
    import { startPrivateRedis } from ${JSON.stringify(`${SUPPORT_DIR}private-redis.ts`)};
    const redis = await startPrivateRedis();
    const postgres = await startPrivatePostgres();
    console.log(JSON.stringify({ redis: { port: redis.port, dir: redis.dir }, postgres: { port: postgres.port, dir: postgres.dir } }));
    process.kill(process.pid, 'SIGKILL');
  `;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const signal = await new Promise((resolve) => child.once('exit', (_code, exitSignal) => resolve(exitSignal)));
  expect(signal, output).toBe('SIGKILL');
  return JSON.parse(output.trim().split('\n').at(-1)!);
}

/** A client that tries once: no reconnection, no offline queue, so a dead server shows at once. */
function redisClient(url: string): Redis {
  const client = new Redis(url, { lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0, enableOfflineQueue: false });
  client.on('error', () => undefined);
  return client;
}

async function connectedPg(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => undefined); // the restart ends this session; the failed query is what the test looks at
  await client.connect();
  return client;
}

async function rows(url: string): Promise<string[]> {
  const client = await connectedPg(url);
  try {
    return (await client.query<{ note: string }>('SELECT note FROM notes ORDER BY id')).rows.map((row) => row.note);
  } finally {
    await client.end();
  }
}

describe('private servers for fault-injection tests', () => {
  it('Redis answers, is unreachable after kill(), and start() brings it back on the same port, empty', async () => {
    const redis = await startPrivateRedis();
    try {
      expect(redis.url).toBe(`redis://127.0.0.1:${redis.port}`);
      const before = redisClient(redis.url);
      await before.connect();
      expect(await before.ping()).toBe('PONG');
      await before.set('kept?', 'yes');
      before.disconnect();

      await redis.kill();
      const whileDown = redisClient(redis.url);
      const refusal = new Promise<Error>((resolve) => whileDown.once('error', resolve));
      await expect(whileDown.connect()).rejects.toThrow();
      expect((await refusal).message).toMatch(/ECONNREFUSED/);
      whileDown.disconnect();

      await redis.start();
      const after = redisClient(redis.url);
      await after.connect();
      try {
        expect(await after.ping()).toBe('PONG');
        expect(await after.get('kept?')).toBeNull();
      } finally {
        after.disconnect();
      }
    } finally {
      await redis.stop();
    }
    expect(existsSync(redis.dir)).toBe(false);
  });

  it('PostgreSQL keeps its data across fast and immediate restarts on the same port; sessions from before end', async () => {
    const postgres = await startPrivatePostgres();
    try {
      expect(postgres.url).toBe(`postgres://postgres@127.0.0.1:${postgres.port}/postgres`);
      const url = await postgres.createDatabase();
      const setup = await connectedPg(url);
      await setup.query('CREATE TABLE notes (id serial PRIMARY KEY, note text NOT NULL)');
      await setup.query(`INSERT INTO notes (note) VALUES ('written before the restarts')`);
      await setup.end();

      for (const mode of ['fast', 'immediate'] as const) {
        const before = await connectedPg(url);
        try {
          await postgres.restart(mode);
          await expect(before.query('SELECT 1'), `a session from before the ${mode} restart`).rejects.toThrow();
        } finally {
          await before.end().catch(() => undefined);
        }
        expect(await rows(url), `after the ${mode} restart`).toEqual(['written before the restarts']);
      }

      expect(await postgres.createDatabase('named_one')).toBe(`postgres://postgres@127.0.0.1:${postgres.port}/named_one`);
      await expect(postgres.createDatabase('no"quotes')).rejects.toThrow(/not a plain database name/);
    } finally {
      await postgres.stop();
    }
    expect(existsSync(postgres.dir)).toBe(false);
  });

  it('servers and directories of a test process that dies without stop() are removed all the same', async () => {
    const { redis, postgres } = await serversOfAKilledProcess();
    await waitFor(async () => !existsSync(redis.dir) && !existsSync(postgres.dir), 10_000, 'the orphaned directories to be removed');
    await waitFor(async () => !(await acceptsConnections(redis.port)) && !(await acceptsConnections(postgres.port)), 10_000, 'the orphaned servers to be gone');
  });
});
