import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkerCapabilities } from '../src/live-conversions/capability-board.js';
import { freePort, spawnService, waitFor } from './support/service-process.js';
import { createTestEnvironment } from './support/test-app.js';

/**
 * The worker says how its engines are sandboxed (ENGINE_SANDBOX): in its start-up log, in the capabilities it
 * publishes, in /metrics and in the API's readiness answer; `required`, the default, refuses to start where every
 * layer does not hold — here a worker that is not root, whose engines would be its own user outside their namespaces —
 * and readiness answers 503 while a worker runs engines without the sandbox its setting requires.
 */
const TOKEN = 'sandbox-metrics-token-0123456789';
const isRoot = process.getuid?.() === 0;
/** A root worker is what lends each sandbox a user of its own: elsewhere these are skipped, but never in CI, where they fail. */
const asRoot = isRoot || process.env.CI ? it : it.skip;

describe('a worker and its engine sandbox', () => {
  let environment: Awaited<ReturnType<typeof createTestEnvironment>>;
  const services: Array<ReturnType<typeof spawnService>> = [];
  let baseUrl = '';

  beforeAll(async () => {
    if (process.env.CI) expect(isRoot, 'CI runs the sandbox tests as root: they may not be skipped there').toBe(true);
    environment = await createTestEnvironment({ LOG_LEVEL: 'info', METRICS_TOKEN: TOKEN, WORKER_QUEUES: 'images' });
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    const service = spawnService({ ...environment.variables, ROLE: 'all', PORT: String(port) });
    services.push(service);
    await waitFor(async () => (await fetch(`${baseUrl}/api/x402/v1/health/ready`)).ok, 60_000, `the service\n${service.output()}`);
  }, 90_000);

  afterAll(async () => {
    await Promise.all(services.map((service) => service.stop()));
    await environment?.drop();
  });

  const board = async (): Promise<WorkerCapabilities[]> => {
    const redis = new Redis(environment.variables.REDIS_URL!);
    try {
      const keys = await redis.keys(`${environment.variables.QUEUE_PREFIX}:capabilities:*`);
      const entries = keys.length > 0 ? await redis.hgetall(keys[0]!) : {};
      return Object.values(entries).map((value) => JSON.parse(value) as WorkerCapabilities);
    } finally {
      redis.disconnect();
    }
  };

  asRoot('sandboxes every engine by default (required) and says so: log, capabilities, /metrics, readiness', async () => {
    await waitFor(async () => (await board()).length === 1, 30_000, 'the worker’s capabilities');
    const [worker] = await board();
    expect(worker!.sandbox).toMatchObject({ setting: 'required', sandboxed: true, identity: 'own-user' });
    expect(worker!.sandbox!.description).toMatch(/^engines are sandboxed \(bubblewrap:.*a user of their own.*seccomp\)$/);
    expect(services[0]!.output()).toContain(worker!.sandbox!.description);

    const metrics = await (await fetch(`${baseUrl}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
    expect(metrics).toMatch(/^fileshift_engine_sandboxed\{setting="required",identity="own-user"\} 1$/m);

    const ready = (await (await fetch(`${baseUrl}/api/x402/v1/health/ready`)).json()) as { engines?: { workers: number; sandboxed: number } };
    expect(ready.engines).toEqual({ workers: 1, sandboxed: 1, off: 0 });
  });

  asRoot('a worker that is not root refuses to start (ENGINE_SANDBOX=required, the default), exit 78, in one line naming why and the fix', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'fileshift-nobody-'));
    chmodSync(dataDir, 0o777);
    try {
      const worker = spawnService({ ...environment.variables, ROLE: 'worker', DATA_DIR: dataDir, LOG_LEVEL: 'warn' }, { uid: 65534, gid: 65534 });
      services.push(worker);
      expect(await worker.exited).toBe(78);
      expect(worker.output().trim().split('\n').at(-1)).toBe(
        'fileshift: failed to start: ENGINE_SANDBOX=required, but engines cannot be sandboxed here: engines would run as the worker’s own user outside their namespaces (the worker is not root); ' +
          'to fix: run the worker as root on a machine whose kernel lets bubblewrap make user namespaces (docs/engine-sandbox.md), or set ENGINE_SANDBOX=off to run engines without a sandbox',
      );
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  asRoot('ENGINE_SANDBOX=off runs engines unsandboxed, with a warning at every start and the gauge at 0', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'fileshift-off-'));
    const metricsPort = await freePort();
    try {
      const worker = spawnService({ ...environment.variables, ROLE: 'worker', ENGINE_SANDBOX: 'off', DATA_DIR: dataDir, METRICS_PORT: String(metricsPort), HOST: '127.0.0.1' });
      services.push(worker);
      await waitFor(async () => worker.output().includes('worker started'), 60_000, `the unsandboxed worker\n${worker.output()}`);
      expect(worker.output()).toMatch(/"level":40,.*"msg":"engines are not sandboxed: ENGINE_SANDBOX=off"/);
      const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
      expect(metrics).toMatch(/^fileshift_engine_sandboxed\{setting="off",identity="none"\} 0$/m);
      await waitFor(async () => (await board()).length === 2, 30_000, 'both workers’ capabilities');
      const ready = (await (await fetch(`${baseUrl}/api/x402/v1/health/ready`)).json()) as { engines?: { workers: number; sandboxed: number } };
      expect(ready.engines).toEqual({ workers: 2, sandboxed: 1, off: 1 });
      await worker.stop();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  asRoot('readiness answers 503 while a live worker runs engines without the sandbox its setting requires', async () => {
    // A worker of an older release, whose `auto` ran its engines unsandboxed when its trial failed, as it publishes itself.
    const redis = new Redis(environment.variables.REDIS_URL!);
    const [key] = await redis.keys(`${environment.variables.QUEUE_PREFIX}:capabilities:*`);
    const old: WorkerCapabilities = { workerId: 'old-release:1', host: 'old', pid: 1, engines: ['sharp'], versions: {}, queues: ['images'], sandbox: { setting: 'auto' as 'required', sandboxed: false, description: 'engines are not sandboxed: …' }, seenAt: Date.now() };
    try {
      await redis.hset(key!, { [old.workerId]: JSON.stringify(old) });
      const answer = await fetch(`${baseUrl}/api/x402/v1/health/ready`);
      expect(answer.status).toBe(503);
      const body = (await answer.json()) as { error: { code: string; message: string; details: { engines: unknown } } };
      expect(body.error.message).toMatch(/^Not ready: 1 worker\(s\) run engines without the sandbox ENGINE_SANDBOX requires/);
      expect(body.error.details.engines).toMatchObject({ unsandboxed: 1 });
    } finally {
      await redis.hdel(key!, old.workerId);
      redis.disconnect();
    }
    expect((await fetch(`${baseUrl}/api/x402/v1/health/ready`)).status).toBe(200);
  });
});
