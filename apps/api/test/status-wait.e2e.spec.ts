import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { toneWav } from '@fileshift/testing';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createHttpApp } from '../src/bootstrap.js';
import { loadConfig } from '../src/config/app-config.js';
import { ConversionJobs } from '../src/conversion-jobs/conversion-jobs.service.js';
import { JobName } from '../src/queue/job-contract.js';
import { JobService } from '../src/queue/job.service.js';
import { type PaidTestApp, startPaidTestApp } from './support/paid-test-app.js';
import { convertFile } from './support/x402-jobs.js';

/**
 * A long-polled status (`?wait=N`, `Prefer: wait=N`) through the real service: the job is paid on one process
 * (API and worker) and waited for on another API replica while the media queue is paused, so only the end the
 * worker announces once the queue resumes can answer it.
 */
describe('status with wait (real settlement, two API replicas, a paused queue resumed later)', () => {
  let paying: PaidTestApp;
  let replica: NestFastifyApplication;
  let replicaUrl: string;
  const wav = Buffer.from(toneWav(1));

  const configOf = (variables: Record<string, string>) => {
    const loaded = loadConfig(variables, '0.0.0-test');
    if (!loaded.ok) throw new Error(loaded.problems.join('; '));
    return loaded.config;
  };
  const status = (jobId: string, query = '', headers: Record<string, string> = {}) => fetch(`${replicaUrl}/api/x402/v1/convert-file/${jobId}/status${query}`, { headers });
  const startJob = async () => {
    const accepted = await convertFile(paying.baseUrl, paying.pay, wav, 'tone.wav', 'flac');
    expect(accepted.status, await accepted.clone().text()).toBe(202);
    return ((await accepted.json()) as { job_id: string }).job_id;
  };

  beforeAll(async () => {
    paying = await startPaidTestApp({ payerIndex: 4 });
    await paying.app.get(JobService).queueOf(JobName.ConvertMedia).pause();
    // The second replica lets one request wait at a time, so the bound can be met.
    replica = await createHttpApp(configOf({ ...paying.variables, ROLE: 'api', X402_STATUS_MAX_WAITING: '1' }), pino({ level: 'silent' }));
    await replica.listen({ port: 0, host: '127.0.0.1' });
    replicaUrl = `http://127.0.0.1:${(replica.getHttpServer().address() as { port: number }).port}`;
  });
  afterAll(async () => {
    await replica?.close();
    await paying?.close();
  });

  it('a wait that ends before the job answers with the processing shape and Retry-After', async () => {
    const jobId = await startJob();
    const answer = await status(jobId, '?wait=1');
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ job_id: jobId, status: 'queued', result_available: false, retry_after_seconds: expect.any(Number) });
    expect(Number(answer.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });

  it('a job deleted while its status is waited for answers 410 (found by the sweep, not at the timeout)', async () => {
    const jobId = await startJob();
    const waited = status(jobId, '?wait=30');
    await vi.waitFor(() => expect(replica.get(ConversionJobs).waiting).toBe(1), { timeout: 10_000 });
    expect((await fetch(`${paying.baseUrl}/api/x402/v1/convert-file/${jobId}/delete`, { method: 'DELETE' })).status).toBe(200);
    const answer = await waited;
    expect(answer.status).toBe(410);
    expect(await answer.json()).toMatchObject({ error: { code: 'gone' } });
  });

  it('a long poll on another replica is answered at the job’s end; past the bound a waiting status is refused with 429', async () => {
    const jobId = await startJob();
    const asked = Date.now();
    const waited = status(jobId, '', { Prefer: 'respond-async, wait=30' });
    await vi.waitFor(() => expect(replica.get(ConversionJobs).waiting).toBe(1), { timeout: 10_000 });

    const refused = await status(jobId, '?wait=5');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await refused.json()).toMatchObject({ error: { code: 'rate_limited' } });
    // Without a wait the same replica still answers at once.
    expect(await (await status(jobId)).json()).toMatchObject({ status: 'queued' });

    await paying.app.get(JobService).queueOf(JobName.ConvertMedia).resume();
    const answer = await waited;
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ job_id: jobId, status: 'done', result_available: true });
    expect(answer.headers.get('preference-applied')).toBe('wait=30');
    // Answered when the job ended, well before its 30 s were up.
    expect(Date.now() - asked).toBeLessThan(25_000);
    expect(replica.get(ConversionJobs).waiting).toBe(0);
  });

  it('refuses a wait that is not a whole number of seconds from 0 to 30 (400); takes Prefer: wait above 30 as 30', async () => {
    const jobId = await startJob();
    for (const wait of ['31', '-1', '1.5', 'soon', '']) {
      const answer = await status(jobId, `?wait=${wait}`);
      expect(answer.status, wait).toBe(400);
      expect(await answer.json()).toMatchObject({ error: { code: 'bad_request', message: expect.stringContaining('0 to 30') } });
    }
    const preferred = await status(jobId, '', { Prefer: 'wait=600' });
    expect(preferred.status).toBe(200);
    expect(preferred.headers.get('preference-applied')).toBe('wait=30');
    expect(await preferred.json()).toMatchObject({ status: 'done' });
  });

  it('a status waiting on an API process that shuts down is answered with what it has, not held to its wait', async () => {
    const media = paying.app.get(JobService).queueOf(JobName.ConvertMedia);
    await media.pause();
    try {
      const jobId = await startJob();
      const closing = await createHttpApp(configOf({ ...paying.variables, ROLE: 'api' }), pino({ level: 'silent' }));
      await closing.listen({ port: 0, host: '127.0.0.1' });
      const url = `http://127.0.0.1:${(closing.getHttpServer().address() as { port: number }).port}`;
      const asked = Date.now();
      const waited = fetch(`${url}/api/x402/v1/convert-file/${jobId}/status?wait=30`);
      await vi.waitFor(() => expect(closing.get(ConversionJobs).waiting).toBe(1), { timeout: 10_000 });
      await closing.close();
      const answer = await waited;
      expect(answer.status).toBe(200);
      expect(await answer.json()).toMatchObject({ job_id: jobId, status: 'queued' });
      expect(Date.now() - asked).toBeLessThan(25_000);
    } finally {
      await media.resume();
    }
  });
});
