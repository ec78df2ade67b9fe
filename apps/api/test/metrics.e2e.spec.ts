import type { INestApplicationContext } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DevChain } from '@fileshift/devchain';
import { sampleDocx } from '@fileshift/converters/testing';
import { pino } from 'pino';
import sharp from 'sharp';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpApp, createWorkerContext } from '../src/bootstrap.js';
import { type AppConfig, loadConfig } from '../src/config/app-config.js';
import { WorkerMetricsServer } from '../src/metrics/worker-metrics.server.js';
import { waitFor } from './support/service-process.js';
import { parseExposition, type Sample, samplesOf, valueOf } from './support/prometheus-exposition.js';
import { createTestEnvironment, startTestApp, type TestApp } from './support/test-app.js';
import { convertFile, jobEnded } from './support/x402-jobs.js';
import { type Challenge, encodeBase64Json, payingFetch, signedPayment } from './support/x402-payer.js';

const TOKEN = 'metrics-e2e-token-7f3a9c21';
const PNG_HEADER = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex').toString('base64');
const silent = pino({ level: 'silent' });

async function scrape(url: string, token = TOKEN): Promise<Sample[]> {
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  expect(response.status, await response.clone().text()).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return parseExposition(await response.text());
}

/** Scrapes until `holds` is true of the samples (counting happens just after what a client sees), or fails with the last scrape. */
async function scrapeUntil(url: string, holds: (samples: Sample[]) => boolean): Promise<Sample[]> {
  let samples: Sample[] = [];
  await waitFor(async () => holds((samples = await scrape(url))), 10_000, 'the metrics').catch(() => undefined);
  return samples;
}

async function expectUnauthorized(response: Response): Promise<void> {
  expect(response.status).toBe(401);
  expect(response.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
  expect(await response.json()).toEqual({ error: { code: 'unauthorized', message: expect.stringContaining('METRICS_TOKEN') } });
}

describe('/metrics of an API process and a worker process (split roles, real queue, engines and settlement)', () => {
  let chain: DevChain;
  let environment: Awaited<ReturnType<typeof createTestEnvironment>>;
  let api: NestFastifyApplication;
  let worker: INestApplicationContext;
  let apiMetrics: string;
  let workerMetrics: string;
  let baseUrl: string;
  let pay: typeof fetch;
  const jobIds: string[] = [];

  const configAs = (role: 'api' | 'worker'): AppConfig => {
    const loaded = loadConfig({ ...environment.variables, ROLE: role }, '0.0.0-test');
    if (!loaded.ok) throw new Error(loaded.problems.join('; '));
    return loaded.config;
  };

  beforeAll(async () => {
    chain = await DevChain.start();
    environment = await createTestEnvironment({
      DEVCHAIN_RPC_URL: chain.rpcUrl,
      METRICS_TOKEN: TOKEN,
      METRICS_PORT: '0',
      // A LibreOffice instance is replaced after each conversion: one document shows a pool restart.
      LIBREOFFICE_MAX_CONVERSIONS: '1',
      KEY_API_ANONYMOUS_REQUESTS_PER_MINUTE: '2',
    });
    worker = await createWorkerContext(configAs('worker'), silent);
    api = await createHttpApp(configAs('api'), silent);
    await api.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(api.getHttpServer().address() as { port: number }).port}`;
    apiMetrics = `${baseUrl}/metrics`;
    workerMetrics = `http://127.0.0.1:${worker.get(WorkerMetricsServer).port()}/metrics`;
    pay = payingFetch(chain, privateKeyToAccount(chain.payerPrivateKeys[1]!));
  });

  afterAll(async () => {
    await api?.close();
    await worker?.close();
    await environment?.drop();
    await chain?.stop();
  });

  it('a paid image conversion: the API counts the job fee and the result settled, the worker the queue wait, the step on sharp and the job done', async () => {
    const png = await sharp({ create: { width: 32, height: 20, channels: 3, background: '#3366cc' } }).png().toBuffer();
    const accepted = await convertFile(baseUrl, pay, png, 'holiday-photo.png', 'webp');
    const done = await jobEnded(accepted);
    expect(done.status).toBe('done');
    jobIds.push(done.job_id);
    expect((await pay(done.result_url!)).status).toBe(200);

    const fromApi = await scrape(apiMetrics);
    expect(valueOf(fromApi, 'fileshift_settlements_total', { kind: 'job_fee', outcome: 'settled' })).toBe(1);
    expect(valueOf(fromApi, 'fileshift_settlements_total', { kind: 'result', outcome: 'settled' })).toBe(1);
    expect(valueOf(fromApi, 'fileshift_http_request_duration_seconds_count', { api: 'x402', route: '/api/x402/v1/convert-file', status_class: '2xx' })).toBe(1);
    // The API runs no conversion: its conversion metrics have no sample.
    expect(samplesOf(fromApi, 'fileshift_conversion_duration_seconds_count')).toEqual([]);

    const fromWorker = await scrapeUntil(workerMetrics, (samples) => valueOf(samples, 'fileshift_jobs_ended_total', { status: 'done' }) >= 1);
    expect(valueOf(fromWorker, 'fileshift_jobs_ended_total', { status: 'done', failure_type: 'none' })).toBe(1);
    expect(valueOf(fromWorker, 'fileshift_conversion_duration_seconds_count', { engine: 'sharp', pair_class: 'image_to_image', outcome: 'ok' })).toBe(1);
    expect(valueOf(fromWorker, 'fileshift_conversion_duration_seconds_sum', { engine: 'sharp', pair_class: 'image_to_image' })).toBeGreaterThan(0);
    expect(valueOf(fromWorker, 'fileshift_queue_wait_seconds_count', { engine_class: 'images' })).toBe(1);
    // The worker settles nothing.
    expect(samplesOf(fromWorker, 'fileshift_settlements_total')).toEqual([]);
  });

  it('both processes report the depth of every engine class\'s queue, and the default process metrics', async () => {
    for (const url of [apiMetrics, workerMetrics]) {
      const samples = await scrape(url);
      for (const engineClass of ['documents', 'media', 'images']) {
        for (const state of ['waiting', 'active', 'delayed']) {
          expect(samplesOf(samples, 'fileshift_queue_jobs', { engine_class: engineClass, state }), `${url} ${engineClass} ${state}`).toHaveLength(1);
        }
      }
      expect(valueOf(samples, 'fileshift_queue_jobs', { engine_class: 'images', state: 'waiting' })).toBe(0);
      expect(samplesOf(samples, 'process_cpu_user_seconds_total')).toHaveLength(1);
      expect(samplesOf(samples, 'nodejs_heap_size_used_bytes')).toHaveLength(1);
    }
  });

  it('a document conversion on the warm LibreOffice pool: its duration, and the instance replaced after it (LIBREOFFICE_MAX_CONVERSIONS=1)', async () => {
    const done = await jobEnded(await convertFile(baseUrl, pay, sampleDocx(), 'quarterly-report.docx', 'pdf'));
    expect(done.status).toBe('done');
    jobIds.push(done.job_id);
    const samples = await scrapeUntil(workerMetrics, (s) => valueOf(s, 'fileshift_engine_pool_restarts_total', { engine: 'libreoffice', reason: 'retired' }) >= 1);
    expect(valueOf(samples, 'fileshift_engine_pool_restarts_total', { engine: 'libreoffice', reason: 'retired' })).toBe(1);
    expect(valueOf(samples, 'fileshift_conversion_duration_seconds_count', { engine: 'libreoffice', pair_class: 'document_to_document', outcome: 'ok' })).toBe(1);
    expect(valueOf(samples, 'fileshift_queue_wait_seconds_count', { engine_class: 'documents' })).toBe(1);
    expect(valueOf(samples, 'fileshift_jobs_ended_total', { status: 'done', failure_type: 'none' })).toBe(2);
  });

  it('a corrupt input ends failed: counted by its failure type', async () => {
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } }).png().toBuffer();
    const corrupt = Buffer.concat([png.subarray(0, 60), Buffer.alloc(200, 7)]);
    const failed = await jobEnded(await convertFile(baseUrl, pay, corrupt, 'broken.png', 'webp'));
    expect(failed).toMatchObject({ status: 'failed', failure_type: 'unsupported_or_corrupt_input' });
    jobIds.push(failed.job_id);
    const samples = await scrapeUntil(workerMetrics, (s) => valueOf(s, 'fileshift_jobs_ended_total', { status: 'failed' }) >= 1);
    expect(valueOf(samples, 'fileshift_jobs_ended_total', { status: 'failed', failure_type: 'unsupported_or_corrupt_input' })).toBe(1);
    expect(valueOf(samples, 'fileshift_conversion_duration_seconds_count', { engine: 'sharp', outcome: 'failed' })).toBe(1);
  });

  it('a rate-limit refusal of the key API is counted by the API', async () => {
    let refused = 0;
    for (let i = 0; i < 10 && refused === 0; i++) {
      const response = await fetch(`${baseUrl}/api/v1/list_ext_out`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ext_in: 'png' }) });
      if (response.status === 429) refused++;
      else expect(response.status).toBe(200);
    }
    expect(refused).toBe(1);
    const samples = await scrape(apiMetrics);
    expect(valueOf(samples, 'fileshift_rate_limit_refusals_total', { api: 'key', limit: 'per_minute' })).toBe(1);
    expect(valueOf(samples, 'fileshift_http_request_duration_seconds_count', { api: 'key', route: '/api/v1/list_ext_out', status_class: '4xx' })).toBe(1);
  });

  it('no label names a job or a file', async () => {
    const text = (await Promise.all([apiMetrics, workerMetrics].map((url) => fetch(url, { headers: { authorization: `Bearer ${TOKEN}` } }).then((r) => r.text())))).join('\n');
    expect(jobIds).toHaveLength(3);
    for (const secret of [...jobIds, 'holiday-photo', 'quarterly-report', 'broken.png', '/convert-file/job_']) expect(text).not.toContain(secret);
  });

  it('without the token, or with another one, both processes answer 401 in the ErrorResponse shape', async () => {
    for (const url of [apiMetrics, workerMetrics]) {
      await expectUnauthorized(await fetch(url));
      await expectUnauthorized(await fetch(url, { headers: { authorization: 'Bearer not-the-metrics-token-at-all' } }));
      await expectUnauthorized(await fetch(url, { headers: { authorization: `Basic ${TOKEN}` } }));
    }
  });

  it('the worker\'s metrics port serves nothing else', async () => {
    const other = await fetch(workerMetrics.replace('/metrics', '/api/x402/v1/health'), { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(other.status).toBe(404);
    expect(((await other.json()) as { error: { code: string } }).error.code).toBe('not_found');
    const post = await fetch(workerMetrics, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(post.status).toBe(404);
  });

  it('a paid detection counts its fee; with the chain down the facilitator\'s outage is counted and the client gets its 503', async () => {
    const detect = (fetcher: typeof fetch, headers: Record<string, string> = {}) =>
      fetcher(`${baseUrl}/api/x402/v1/detect-file-type`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ filename: 'scan.png', size_bytes: 4096, header_first_200_bytes_base64: PNG_HEADER }),
      });
    expect((await detect(pay)).status).toBe(200);
    const [accepted] = ((await (await detect(fetch)).json()) as Challenge).accepts;
    const payment = encodeBase64Json(await signedPayment(privateKeyToAccount(chain.payerPrivateKeys[2]!), accepted!));
    await chain.stop();
    const refused = await detect(fetch, { 'PAYMENT-SIGNATURE': payment });
    expect(refused.status).toBe(503);
    const samples = await scrape(apiMetrics);
    expect(valueOf(samples, 'fileshift_settlements_total', { kind: 'detection_fee', outcome: 'settled' })).toBe(1);
    expect(valueOf(samples, 'fileshift_facilitator_errors_total', { operation: 'verify', kind: 'unavailable' })).toBe(1);
  });

  it('/metrics is not in the OpenAPI document (it is for operators, not clients)', async () => {
    const document = (await (await fetch(`${baseUrl}/openapi.json`)).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(document.paths)).not.toContain('/metrics');
  });
});

describe('/metrics without METRICS_TOKEN', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ ROLE: 'api' });
  });
  afterAll(async () => t?.close());

  it('is not served: 404 not_found like any unknown route, with or without a token', async () => {
    for (const headers of [{}, { authorization: `Bearer ${TOKEN}` }] as Array<Record<string, string>>) {
      const response = await fetch(`${t.baseUrl}/metrics`, { headers });
      expect(response.status).toBe(404);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('not_found');
    }
  });
});
