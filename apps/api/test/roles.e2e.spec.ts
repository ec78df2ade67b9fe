import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QueueName } from '../src/queue/job-contract.js';
import { freePort, type ServiceProcess, spawnService, waitFor } from './support/service-process.js';
import { createTestEnvironment } from './support/test-app.js';
import { runPurgeExpired } from './support/test-queue.js';

describe('ROLE=api and ROLE=worker as two processes sharing the queue', () => {
  let environment: Awaited<ReturnType<typeof createTestEnvironment>>;
  let api: ServiceProcess;
  let worker: ServiceProcess;
  let baseUrl: string;
  let workerMetrics: string;
  const metricsToken = 'roles-e2e-metrics-token-42';

  beforeAll(async () => {
    environment = await createTestEnvironment({ LOG_LEVEL: 'info' });
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    const metricsPort = await freePort();
    workerMetrics = `http://127.0.0.1:${metricsPort}/metrics`;
    worker = spawnService({ ...environment.variables, ROLE: 'worker', METRICS_TOKEN: metricsToken, METRICS_PORT: String(metricsPort) });
    api = spawnService({ ...environment.variables, ROLE: 'api', PORT: String(port) });
    await waitFor(async () => (await fetch(`${baseUrl}/api/x402/v1/health/ready`)).status === 200, 30_000, 'the api process');
    await waitFor(async () => worker.output().includes('worker started'), 30_000, 'the worker process');
  });

  afterAll(async () => {
    await Promise.all([api?.stop(), worker?.stop()]);
    await environment?.drop();
  });

  it('the worker process consumes what is queued on the shared prefix; the api process runs no worker', async () => {
    const result = await runPurgeExpired({ redisUrl: environment.variables.REDIS_URL!, prefix: environment.variables.QUEUE_PREFIX!, databaseUrl: environment.variables.DATABASE_URL! }, 60_000).catch((error: Error) => {
      throw new Error(`${error.message}\nworker output:\n${worker.output()}`);
    });
    expect(result).toEqual({ purged: 0, purgedUploads: 0 });
    const queue = new Queue(QueueName.Maintenance, { connection: { url: environment.variables.REDIS_URL }, prefix: environment.variables.QUEUE_PREFIX });
    try {
      expect(await queue.getWorkers()).toHaveLength(1);
    } finally {
      await queue.close();
    }
    expect(api.output()).not.toContain('worker started');
  });

  it('the worker process serves its metrics on METRICS_PORT with the token; the api process without METRICS_TOKEN serves none', async () => {
    const scraped = await fetch(workerMetrics, { headers: { authorization: `Bearer ${metricsToken}` } });
    expect(scraped.status).toBe(200);
    const text = await scraped.text();
    expect(text).toContain('fileshift_queue_jobs{engine_class="images",state="waiting"}');
    expect(text).toContain('process_cpu_user_seconds_total');
    expect((await fetch(workerMetrics)).status).toBe(401);
    expect((await fetch(`${baseUrl}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } })).status).toBe(404);
  });

  it('both processes shut down cleanly on SIGTERM', async () => {
    const [apiCode, workerCode] = await Promise.all([api.stop('SIGTERM'), worker.stop('SIGTERM')]);
    expect(apiCode).toBe(0);
    expect(workerCode).toBe(0);
  });
});
