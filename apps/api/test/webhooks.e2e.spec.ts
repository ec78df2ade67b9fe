import { createPublicKey, verify } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { INestApplicationContext } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DevChain } from '@fileshift/devchain';
import { answerStatus as status, freePort, type ReceivedDelivery, startWebhookReceiver, tinyPng, toneWav, type WebhookReceiver } from '@fileshift/testing';
import { pino } from 'pino';
import { DataSource } from 'typeorm';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiKeysRepository } from '../src/api-keys/api-keys.repository.js';
import { createHttpApp, createWorkerContext } from '../src/bootstrap.js';
import { type AppConfig, loadConfig } from '../src/config/app-config.js';
import { JobReconciler } from '../src/conversion-jobs/worker/job-reconciler.js';
import { JobName } from '../src/queue/job-contract.js';
import { JobService } from '../src/queue/job.service.js';
import { keyApiClient } from './support/key-api-client.js';
import { createTestEnvironment } from './support/test-app.js';
import { payingFetch } from './support/x402-payer.js';

const silent = pino({ level: 'silent' });

interface WebhookEvent {
  id: string;
  type: string;
  created_at: string;
  data: { job_id: string; status: string; api: string; status_url?: string; result_url?: string };
}

interface StatusWithWebhook {
  job_id: string;
  status: string;
  webhook?: { url: string; state: string; attempts: number; last_attempt_at?: string; last_status_code?: number; last_error?: string };
}

/**
 * A webhook receiver on 127.0.0.1: each path answers as a test sets it (`answers`, taken in order, the last one
 * kept), and every request it got is kept with its raw body. A `hang` answer never answers.
 */
const hang = () => undefined;

/**
 * Webhooks through the real service (issue #44, part 3): an API process and a worker process (in this test's
 * process) on real PostgreSQL, Redis and a dev chain; receivers on 127.0.0.1, reached only through the outbound
 * guard's allow-list. Each event is verified against GET /.well-known/did.json with node:crypto alone.
 */
describe('webhooks: signed, retried, stopped by 410, never redirected (real settlement, queue and workers)', () => {
  let chain: DevChain;
  let environment: Awaited<ReturnType<typeof createTestEnvironment>>;
  let api: NestFastifyApplication;
  let worker: INestApplicationContext | undefined;
  let baseUrl: string;
  let pay: typeof fetch;
  let receiver: WebhookReceiver;
  let lateReceiver: WebhookReceiver | undefined;
  let receiverUrl: string;
  let latePort: number;
  let canaryPort: number;
  let canaryConnections = 0;
  let canary: Server;
  const wav = Buffer.from(toneWav(1));

  const configAs = (role: 'api' | 'worker', overrides: Record<string, string> = {}): AppConfig => {
    const loaded = loadConfig({ ...environment.variables, ROLE: role, ...overrides }, '0.0.0-test');
    if (!loaded.ok) throw new Error(loaded.problems.join('; '));
    return loaded.config;
  };

  /** x402 convert-file of a one-second WAV to FLAC, paid, with `webhookUrl`; the answer. */
  const convert = (webhookUrl: string, fetcher: typeof fetch = pay) => {
    const form = new FormData();
    for (const [name, value] of Object.entries({ target_format: 'flac', filename: 'tone.wav', created_at: '2026-11-01T10:00:00Z', size_bytes: wav.length, webhook_url: webhookUrl })) {
      form.append(name, String(value));
    }
    form.append('file', new Blob([wav], { type: 'application/octet-stream' }), 'tone.wav');
    return fetcher(`${baseUrl}/api/x402/v1/convert-file`, { method: 'POST', body: form });
  };
  const startJob = async (webhookUrl: string): Promise<string> => {
    const accepted = await convert(webhookUrl);
    expect(accepted.status, await accepted.clone().text()).toBe(202);
    return ((await accepted.json()) as { job_id: string }).job_id;
  };
  const statusOf = async (jobId: string): Promise<StatusWithWebhook> => (await fetch(`${baseUrl}/api/x402/v1/convert-file/${jobId}/status`)).json() as Promise<StatusWithWebhook>;
  /** The job's status once its webhook's delivery is in `state`. */
  const webhookIn = async (jobId: string, state: string, timeout = 30_000): Promise<StatusWithWebhook> => {
    let last: StatusWithWebhook | undefined;
    await vi.waitFor(
      async () => {
        last = await statusOf(jobId);
        expect(last.webhook?.state).toBe(state);
      },
      { timeout, interval: 100 },
    );
    return last!;
  };

  /** The event of a delivery, once its signature verified against the service's did.json (node:crypto, no code of ours). */
  const verifiedEvent = async (delivery: ReceivedDelivery): Promise<WebhookEvent> => {
    const did = (await (await fetch(`${baseUrl}/.well-known/did.json`)).json()) as { verificationMethod: Array<{ id: string; publicKeyJwk: object }>; assertionMethod: string[] };
    const kid = String(delivery.headers['fileshift-signature-key']);
    const method = did.verificationMethod.find((candidate) => candidate.id === kid && did.assertionMethod.includes(kid));
    expect(method, `${kid} is an assertion key of did.json`).toBeDefined();
    const id = String(delivery.headers['webhook-id']);
    const timestamp = String(delivery.headers['webhook-timestamp']);
    const [version, signature] = String(delivery.headers['webhook-signature']).split(',');
    expect(version).toBe('v1a');
    const key = createPublicKey({ key: method!.publicKeyJwk as never, format: 'jwk' });
    expect(verify(null, Buffer.from(`${id}.${timestamp}.${delivery.body}`), key, Buffer.from(signature!, 'base64'))).toBe(true);
    // Altered by one byte, it no longer verifies.
    expect(verify(null, Buffer.from(`${id}.${timestamp}.${delivery.body} `), key, Buffer.from(signature!, 'base64'))).toBe(false);
    expect(delivery.headers['content-type']).toBe('application/json');
    const event = JSON.parse(delivery.body) as WebhookEvent;
    expect(event.id).toBe(id);
    return event;
  };

  beforeAll(async () => {
    const [late, canaryAt] = await Promise.all([freePort(), freePort()]);
    latePort = late;
    canaryPort = canaryAt;
    receiver = await startWebhookReceiver();
    receiverUrl = receiver.url('');
    // An inward address the allow-list lets through: were a redirect followed, the guard would not stop it.
    canary = createServer((_request, response) => response.end('canary'));
    canary.on('connection', () => canaryConnections++);
    await new Promise<void>((resolve) => canary.listen(canaryPort, '127.0.0.2', resolve));

    chain = await DevChain.start();
    environment = await createTestEnvironment({
      DEVCHAIN_RPC_URL: chain.rpcUrl,
      METRICS_PORT: '0',
      WORKER_QUEUES: 'media,images',
      OUTBOUND_ALLOW_HOSTS: '127.0.0.1/32,127.0.0.2/32',
      OUTBOUND_ALLOW_PORTS: [receiver.port, latePort, canaryPort].join(','),
      WEBHOOK_MAX_ATTEMPTS: '4',
      WEBHOOK_RETRY_BASE_SECONDS: '0.5',
      WEBHOOK_TIMEOUT_SECONDS: '1',
      // The reconciler runs when a test calls it, not on its timer.
      JOB_RECONCILE_INTERVAL_SECONDS: '3600',
    });
    worker = await createWorkerContext(configAs('worker'), silent);
    api = await createHttpApp(configAs('api'), silent);
    await api.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(api.getHttpServer().address() as { port: number }).port}`;
    pay = payingFetch(chain, privateKeyToAccount(chain.payerPrivateKeys[5]!));
  });

  afterAll(async () => {
    await api?.close();
    await worker?.close();
    await environment?.drop();
    await chain?.stop();
    await receiver?.close();
    await lateReceiver?.close();
    await new Promise((resolve) => canary?.close(resolve));
  });

  it('a done job’s event is received once, signed with the did.json key, and the status shows it delivered', async () => {
    receiver.on('/done', status(204));
    const jobId = await startJob(`${receiverUrl}/done`);
    expect((await statusOf(jobId)).webhook).toMatchObject({ url: `${receiverUrl}/done`, attempts: expect.any(Number) });

    const shown = await webhookIn(jobId, 'delivered');
    expect(shown).toMatchObject({ status: 'done', webhook: { attempts: 1, last_status_code: 204, last_attempt_at: expect.any(String) } });
    expect(shown.webhook?.last_error).toBeUndefined();
    const [delivery, ...more] = receiver.at('/done');
    expect(more).toEqual([]);
    const event = await verifiedEvent(delivery!);
    expect(event).toMatchObject({
      id: `evt_${jobId}_done`,
      type: 'conversion.done',
      data: { job_id: jobId, status: 'done', api: 'x402', status_url: `${baseUrl}/api/x402/v1/convert-file/${jobId}/status`, result_url: `${baseUrl}/api/x402/v1/convert-file/${jobId}/result` },
    });
    expect(Math.abs(Number(delivery!.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(300);
  });

  it('the webhook is a parameter of the request: the same Idempotency-Key with another webhook_url is refused with 409, nothing charged again', async () => {
    receiver.on('/keyed', status(204));
    const keyed = (webhookUrl: string) => {
      const form = new FormData();
      for (const [name, value] of Object.entries({ target_format: 'flac', filename: 'tone.wav', created_at: '2026-11-01T10:00:00Z', size_bytes: wav.length, webhook_url: webhookUrl })) {
        form.append(name, String(value));
      }
      form.append('file', new Blob([wav], { type: 'application/octet-stream' }), 'tone.wav');
      return pay(`${baseUrl}/api/x402/v1/convert-file`, { method: 'POST', body: form, headers: { 'Idempotency-Key': 'webhook-key-0001' } });
    };
    const first = await keyed(`${receiverUrl}/keyed`);
    expect(first.status).toBe(202);
    const again = await keyed(`${receiverUrl}/keyed`);
    expect(again.status).toBe(202);
    expect(again.headers.get('payment-response')).toBeNull();
    const other = await keyed(`${receiverUrl}/elsewhere`);
    expect(other.status).toBe(409);
    expect(other.headers.get('payment-response')).toBeNull();
  });

  it('a receiver down at first (connection refused) gets the event on a retry once it listens on the same port', async () => {
    const jobId = await startJob(`http://127.0.0.1:${latePort}/late`);
    // An attempt made and answered by no one: waiting for the next.
    await vi.waitFor(
      async () => expect((await statusOf(jobId)).webhook).toMatchObject({ state: 'pending', attempts: expect.any(Number), last_error: expect.stringMatching(/unreachable/) }),
      { timeout: 30_000, interval: 50 },
    );

    lateReceiver = await startWebhookReceiver(latePort);
    const shown = await webhookIn(jobId, 'delivered');
    expect(shown.webhook?.attempts).toBeGreaterThanOrEqual(2);
    const [delivery] = lateReceiver.at('/late');
    expect((await verifiedEvent(delivery!)).data.job_id).toBe(jobId);
  });

  it('500 then 200: retried, the same event id both times, each attempt signed anew', async () => {
    receiver.on('/flaky', status(500), status(200));
    const jobId = await startJob(`${receiverUrl}/flaky`);
    const shown = await webhookIn(jobId, 'delivered');
    expect(shown.webhook).toMatchObject({ attempts: 2, last_status_code: 200 });
    const [first, second] = receiver.at('/flaky');
    const events = [await verifiedEvent(first!), await verifiedEvent(second!)];
    expect(events[0]!.id).toBe(events[1]!.id);
    expect(first!.body).toBe(second!.body);
  });

  it('a receiver that hangs: the attempt times out and the next one delivers', async () => {
    receiver.on('/hang', hang, status(200));
    const jobId = await startJob(`${receiverUrl}/hang`);
    const shown = await webhookIn(jobId, 'delivered');
    expect(shown.webhook).toMatchObject({ attempts: 2, last_status_code: 200 });
    expect(receiver.at('/hang')).toHaveLength(2);
  });

  it('410 disables the webhook after one attempt: no other is made', async () => {
    receiver.on('/gone', status(410));
    const jobId = await startJob(`${receiverUrl}/gone`);
    const shown = await webhookIn(jobId, 'disabled');
    expect(shown.webhook).toMatchObject({ attempts: 1, last_status_code: 410, last_error: expect.stringMatching(/410/) });
    // The queue holds no retry of it: its delivery job completed.
    await vi.waitFor(async () => expect(await api.get(JobService).stateOf(JobName.DeliverWebhook, jobId)).toBe('completed'), { timeout: 10_000 });
    expect(receiver.at('/gone')).toHaveLength(1);
  });

  it('a receiver answering 500 every time: attempts stop at WEBHOOK_MAX_ATTEMPTS, the webhook failed', async () => {
    receiver.on('/broken', status(500));
    const jobId = await startJob(`${receiverUrl}/broken`);
    const shown = await webhookIn(jobId, 'failed');
    expect(shown.webhook).toMatchObject({ attempts: 4, last_status_code: 500, last_error: expect.stringMatching(/HTTP 500/) });
    expect(receiver.at('/broken')).toHaveLength(4);
  });

  it('a receiver redirecting inward (307 to 127.0.0.2): not followed, failed at once, the canary never reached', async () => {
    receiver.on('/redirect', status(307, { location: `http://127.0.0.2:${canaryPort}/` }));
    const jobId = await startJob(`${receiverUrl}/redirect`);
    const shown = await webhookIn(jobId, 'failed');
    expect(shown.webhook).toMatchObject({ attempts: 1, last_error: expect.stringMatching(/redirect/) });
    expect(receiver.at('/redirect')).toHaveLength(1);
    expect(canaryConnections).toBe(0);
  });

  it('a webhook_url naming a private address off the allow-list is refused with 422 before the payment challenge: nothing charged', async () => {
    for (const url of ['http://10.0.0.1/', `http://[::1]:${latePort}/`, 'ftp://127.0.0.1/', 'not a url']) {
      // Unpaid: a 422, not the 402 challenge — the request never reached the payment.
      const unpaid = await convert(url, fetch);
      expect(unpaid.status, url).toBe(422);
      expect(await unpaid.json()).toMatchObject({ error: { details: { fields: [{ field: 'webhook_url' }] } } });
      // With a payer: still 422, and no settlement answered.
      const paid = await convert(url);
      expect(paid.status).toBe(422);
      expect(paid.headers.get('payment-response')).toBeNull();
    }
  });

  it('key API: a convert with webhook_url delivers the event of its job, signed alike', async () => {
    const { secret } = await api.get(ApiKeysRepository).create('webhooks-e2e', { requestsPerMinute: 10_000, dailyQuota: 100_000, maxUploadBytes: 41_943_040 });
    const client = keyApiClient(baseUrl, secret);
    const uploaded = (await (await client.upload(Buffer.from(tinyPng()), 'dot.png')).json()) as { Filename: string };
    const refused = await client.post('convert', { filename: uploaded.Filename, ext_in: 'png', ext_out: 'webp', webhook_url: 'http://192.168.1.1/hook' });
    expect(refused.status).toBe(400);

    receiver.on('/key', status(200));
    const converted = await client.post('convert', { filename: uploaded.Filename, ext_in: 'png', ext_out: 'webp', webhook_url: `${receiverUrl}/key` });
    expect(converted.status, await converted.clone().text()).toBe(200);
    await vi.waitFor(() => expect(receiver.at('/key')).toHaveLength(1), { timeout: 30_000 });
    const event = await verifiedEvent(receiver.at('/key')[0]!);
    expect(event).toMatchObject({ type: 'conversion.done', data: { status: 'done', api: 'key_api', target_format: 'webp' } });
    // No status endpoint in the key API: no links.
    expect(event.data.status_url).toBeUndefined();
  });

  it('an ended job whose event never reached the queue (a crash in between) is handed to it by the reconciler', async () => {
    receiver.on('/reconciled', status(200));
    const jobId = await startJob(`${receiverUrl}/reconciled`);
    await webhookIn(jobId, 'delivered');
    // As if the worker died between the job's end and the enqueue: the webhook pending, the queue without its job.
    await api.get(JobService).remove(JobName.DeliverWebhook, jobId);
    await api
      .get(DataSource)
      .query(`UPDATE webhook_deliveries SET state = 'pending', attempts = 0, updated_at = now() - interval '1 minute' WHERE job_id = $1`, [jobId]);
    await api.get(DataSource).query(`UPDATE conversion_jobs SET finished_at = now() - interval '1 minute' WHERE id = $1`, [jobId]);

    expect((await worker!.get(JobReconciler).reconcile()).webhooks).toBe(1);
    const shown = await webhookIn(jobId, 'delivered');
    expect(shown.webhook?.attempts).toBe(1);
    expect(receiver.at('/reconciled')).toHaveLength(2);
    // Delivered: the next pass leaves it alone.
    expect((await worker!.get(JobReconciler).reconcile()).webhooks).toBe(0);
  });

  it('a job the reconciler gives up at its deadline sends its event, failed', async () => {
    receiver.on('/deadline', status(200));
    const jobId = await startJob(`${receiverUrl}/deadline`);
    await webhookIn(jobId, 'delivered');
    // As if its run had vanished a day ago: still processing, held by nobody, its webhook not yet sent.
    const db = api.get(DataSource);
    await api.get(JobService).remove(JobName.DeliverWebhook, jobId);
    await db.query(`UPDATE webhook_deliveries SET state = 'pending', attempts = 0 WHERE job_id = $1`, [jobId]);
    await db.query(`UPDATE conversion_jobs SET status = 'processing', finished_at = NULL, created_at = now() - interval '1 day' WHERE id = $1`, [jobId]);
    await db.query(`UPDATE job_leases SET owner = NULL, expires_at = NULL WHERE job_id = $1`, [jobId]);

    expect((await worker!.get(JobReconciler).reconcile()).timedOut).toBe(1);
    await webhookIn(jobId, 'delivered');
    const deliveries = receiver.at('/deadline');
    expect(deliveries).toHaveLength(2);
    expect((await verifiedEvent(deliveries[1]!)).data).toMatchObject({ job_id: jobId, status: 'failed' });
  });

  it('across a worker restart: a retry waiting in Redis is delivered by the next worker', async () => {
    // A worker whose retries wait long enough to stop it in between.
    await worker!.close();
    worker = await createWorkerContext(configAs('worker', { WEBHOOK_RETRY_BASE_SECONDS: '4' }), silent);
    receiver.on('/restart', status(503), status(200));
    const jobId = await startJob(`${receiverUrl}/restart`);
    await vi.waitFor(async () => expect((await statusOf(jobId)).webhook).toMatchObject({ state: 'pending', attempts: 1, last_status_code: 503 }), { timeout: 30_000 });
    await vi.waitFor(async () => expect(await api.get(JobService).stateOf(JobName.DeliverWebhook, jobId)).toBe('delayed'), { timeout: 10_000 });

    await worker!.close();
    worker = undefined;
    worker = await createWorkerContext(configAs('worker'), silent);
    const shown = await webhookIn(jobId, 'delivered');
    expect(shown.webhook).toMatchObject({ attempts: 2, last_status_code: 200 });
    expect(receiver.at('/restart')).toHaveLength(2);
  });
});
