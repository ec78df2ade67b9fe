import { type ChildProcess, spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, waitFor } from './support/service-process.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/** A Redis of this test alone, so it can be stopped without disturbing anything else. */
function startPrivateRedis(port: number): ChildProcess {
  return spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
}

describe('readiness follows the dependencies', () => {
  let redis: ChildProcess;
  let t: TestApp;

  beforeAll(async () => {
    const port = await freePort();
    redis = startPrivateRedis(port);
    await waitFor(async () => {
      const { Redis } = await import('ioredis');
      const client = new Redis({ port, lazyConnect: true, retryStrategy: () => null });
      client.on('error', () => undefined);
      try {
        await client.connect();
        return (await client.ping()) === 'PONG';
      } finally {
        client.disconnect();
      }
    }, 10_000, 'the private redis-server');
    t = await startTestApp({ REDIS_URL: `redis://127.0.0.1:${port}`, ROLE: 'api' });
  });

  afterAll(async () => {
    redis?.kill('SIGKILL');
    await t?.close();
  });

  it('answers 200 while PostgreSQL and Redis answer, then 503 naming Redis once it is gone', async () => {
    const up = await fetch(`${t.baseUrl}/api/x402/v1/health/ready`);
    expect(up.status).toBe(200);

    redis.kill('SIGKILL');
    await new Promise((resolve) => redis.once('exit', resolve));

    const down = await fetch(`${t.baseUrl}/api/x402/v1/health/ready`);
    expect(down.status).toBe(503);
    expect(down.headers.get('retry-after')).toBe('5');
    const body = (await down.json()) as { error: { code: string; message: string; details: { checks: unknown } } };
    expect(body.error.code).toBe('dependency_unavailable');
    expect(body.error.message).toContain('redis');
    expect(body.error.message).not.toContain('database');
    expect(body.error.details.checks).toEqual({ database: 'up', redis: 'down' });

    const live = await fetch(`${t.baseUrl}/api/x402/v1/health`);
    expect(live.status).toBe(200);
  });
});
