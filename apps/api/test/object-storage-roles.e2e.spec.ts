import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyApiClient } from './support/key-api-client.js';
import { startS3TestServer, type S3TestServer } from './support/s3-test-server.js';
import { freePort, type ServiceProcess, spawnService, waitFor } from './support/service-process.js';
import { createTestEnvironment } from './support/test-app.js';

/**
 * API and worker as two processes with data directories of their own, as on two machines: with
 * STORAGE_DRIVER=s3 a conversion works although nothing passes through a shared disk.
 */
describe('ROLE=api and ROLE=worker on object storage, sharing no directory', () => {
  let s3: S3TestServer;
  let environment: Awaited<ReturnType<typeof createTestEnvironment>>;
  let workerDataDir: string;
  let api: ServiceProcess;
  let worker: ServiceProcess;
  let baseUrl: string;

  beforeAll(async () => {
    s3 = await startS3TestServer();
    environment = await createTestEnvironment({ ...s3.env, LOG_LEVEL: 'info', WORKER_QUEUES: 'images' });
    workerDataDir = mkdtempSync(join(tmpdir(), 'fileshift-worker-'));
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    worker = spawnService({ ...environment.variables, ROLE: 'worker', DATA_DIR: workerDataDir });
    api = spawnService({ ...environment.variables, ROLE: 'api', PORT: String(port) });
    await waitFor(async () => (await fetch(`${baseUrl}/api/x402/v1/health/ready`)).status === 200, 30_000, `the api process\n${api.output()}`);
    await waitFor(async () => worker.output().includes('worker started'), 30_000, `the worker process\n${worker.output()}`);
  });

  afterAll(async () => {
    await Promise.all([api?.stop(), worker?.stop()]);
    await environment?.drop();
    if (workerDataDir) rmSync(workerDataDir, { recursive: true, force: true });
    await s3?.close();
  });

  it('the start log names the bucket, never the secret', () => {
    expect(api.output()).toContain(`"storage":"S3 bucket ${s3.config.bucket} at ${s3.config.endpoint}"`);
    expect(api.output() + worker.output()).not.toContain(`"${s3.config.secretAccessKey}"`);
  });

  it('upload on the api, conversion on the worker, download from the api: the bytes travel through the bucket', async () => {
    const png = await sharp({ create: { width: 32, height: 20, channels: 3, background: '#33aa00' } }).png().toBuffer();
    const response = await keyApiClient(baseUrl).uploadAndConvert(png, 'leaf.png', 'png', 'webp');
    expect(response.status, `${await response.clone().text()}\nworker output:\n${worker.output()}`).toBe(200);
    const { file } = (await response.json()) as { file: { urls: string[] } };
    const download = await fetch(`${baseUrl}${file.urls[0]}`);
    expect(download.status).toBe(200);
    expect(await sharp(Buffer.from(await download.arrayBuffer())).metadata()).toMatchObject({ format: 'webp', width: 32, height: 20 });
    // Neither process kept a file of its own; the worker's scratch directory is empty again.
    expect(readdirSync(environment.variables.DATA_DIR!)).not.toContain('files');
    expect(readdirSync(workerDataDir)).not.toContain('files');
    expect(readdirSync(join(workerDataDir, 'scratch'))).toEqual([]);
    expect((await s3.keys()).some((key) => key.endsWith('/output.webp'))).toBe(true);
  });
});
