import { spawnSync } from 'node:child_process';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import sharp from 'sharp';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeysRepository } from '../src/api-keys/api-keys.repository.js';
import { createHttpApp } from '../src/bootstrap.js';
import { CapabilityBoard } from '../src/live-conversions/capability-board.js';
import type { AppConfig } from '../src/config/app-config.js';
import { createLogger } from '../src/logging/create-logger.js';
import { type KeyApiError, keyApiClient } from './support/key-api-client.js';
import { waitFor } from './support/service-process.js';
import { createTestEnvironment } from './support/test-app.js';

const APIKEY_CLI = fileURLToPath(new URL('../dist/apikey.js', import.meta.url));

/** Waits out the end of the current minute when it is close, so a count cannot straddle two windows. */
async function startOfAFreshMinute(): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < 10_000) await new Promise((resolve) => setTimeout(resolve, left + 200));
}

describe('key API access: keys, limits, the CLI and the logs', () => {
  let environment: Awaited<ReturnType<typeof createTestEnvironment>>;
  let config: AppConfig;
  let app: NestFastifyApplication;
  let baseUrl: string;
  let logs = '';
  const keyLimits = { requestsPerMinute: 1000, dailyQuota: 100_000, maxUploadBytes: 41_943_040 };

  const expectError = async (response: Response, status: number, message: RegExp) => {
    expect(response.status).toBe(status);
    expect((await response.json()) as KeyApiError).toEqual({ Status: 'Error', Message: expect.stringMatching(message) });
  };
  const createKey = (name: string, limits: Partial<typeof keyLimits> = {}) => app.get(ApiKeysRepository).create(name, { ...keyLimits, ...limits });

  beforeAll(async () => {
    environment = await createTestEnvironment({
      // No worker: conversions stay queued, so the bounded wait of convert can be observed.
      ROLE: 'api',
      KEY_API_ANONYMOUS_REQUESTS_PER_MINUTE: '3',
      KEY_API_ANONYMOUS_DAILY_QUOTA: '1000',
      KEY_API_ANONYMOUS_MAX_UPLOAD_BYTES: '1000',
      KEY_API_CONVERT_WAIT_SECONDS: '1',
    });
    config = environment.config();
    const sink = new Writable({
      write(chunk, _encoding, done) {
        logs += String(chunk);
        done();
      },
    });
    // The service's own logger (its redaction included), at the most talkative level.
    app = await createHttpApp(config, createLogger({ ...config, logLevel: 'trace' }, sink));
    await app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}`;
  });
  afterAll(async () => {
    await app?.close();
    await environment?.drop();
  });

  it('without a key: the no-key upload size, then the per-IP rate (429 + Retry-After); a key is not affected', async () => {
    await startOfAFreshMinute();
    const anonymous = keyApiClient(baseUrl);
    await expectError(await anonymous.upload(Buffer.alloc(1001, 1), 'big.bin'), 413, /maximum upload size of 1000 bytes/);
    expect((await anonymous.post('list_ext_out', { ext_in: 'png' })).status).toBe(200);
    // A refused key counts against the IP like a request without one.
    const refusedKey = await keyApiClient(baseUrl, `fsk_${'x'.repeat(43)}`).post('list_ext_out', { ext_in: 'png' });
    expect(refusedKey.headers.get('ratelimit-limit')).toBe('3');
    expect(refusedKey.headers.get('ratelimit-remaining')).toBe('0');
    await expectError(refusedKey, 401, /^Invalid API key\.$/);
    const limited = await anonymous.post('list_ext_out', { ext_in: 'png' });
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    await expectError(limited, 429, /at most 3 requests per minute without an API key/);
    await expectError(await anonymous.detect(Buffer.from('png')), 429, /per minute/);
    await expectError(await keyApiClient(baseUrl, `fsk_${'y'.repeat(43)}`).post('list_ext_out', { ext_in: 'png' }), 429, /without an API key/);

    const { secret } = await createKey('unaffected');
    expect((await keyApiClient(baseUrl, secret).post('list_ext_out', { ext_in: 'png' })).status).toBe(200);
  });

  it("with a key: the key's own upload size, rate and daily quota", async () => {
    await startOfAFreshMinute();
    const sized = keyApiClient(baseUrl, (await createKey('sized', { maxUploadBytes: 1500 })).secret);
    expect((await sized.upload(Buffer.alloc(1400, 1), 'ok.bin')).status).toBe(200);
    await expectError(await sized.upload(Buffer.alloc(1501, 1), 'big.bin'), 413, /maximum upload size of 1500 bytes/);

    const slow = keyApiClient(baseUrl, (await createKey('slow', { requestsPerMinute: 2 })).secret);
    for (let i = 0; i < 2; i++) expect((await slow.post('list_ext_out', { ext_in: 'png' })).status).toBe(200);
    await expectError(await slow.post('list_ext_out', { ext_in: 'png' }), 429, /at most 2 requests per minute for this API key/);

    const rationed = keyApiClient(baseUrl, (await createKey('rationed', { dailyQuota: 2 })).secret);
    for (let i = 0; i < 2; i++) expect((await rationed.post('list_ext_out', { ext_in: 'png' })).status).toBe(200);
    const overQuota = await rationed.post('list_ext_out', { ext_in: 'png' });
    expect(Number(overQuota.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(overQuota.headers.get('retry-after'))).toBeLessThanOrEqual(86_400);
    await expectError(overQuota, 429, /Daily quota exceeded: at most 2 requests per UTC day for this API key/);
  });

  it('convert waits a bounded time (504 with its own message); the same request again attaches to the same job', async () => {
    const api = keyApiClient(baseUrl, (await createKey('patient')).secret);
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } }).png().toBuffer();
    const { Filename } = (await (await api.upload(png, 'a.png')).json()) as { Filename: string };
    // A worker that can convert PNG says so, but takes nothing from the queue (this process is ROLE=api only).
    await app.get(CapabilityBoard).publish({ workerId: 'busy-worker', host: 'elsewhere', pid: 1, engines: ['sharp'], versions: {}, queues: ['images'], seenAt: Date.now() });
    // The API reads the workers' capabilities every 2 s.
    await waitFor(async () => ((await (await api.post('list_ext_out', { ext_in: 'png' })).json()) as { extensions: string[] }).extensions.includes('webp'), 10_000, 'the worker to be seen');
    const request = { filename: Filename, ext_in: 'png', ext_out: 'webp' };
    const first = await api.post('convert', request);
    expect(first.headers.get('retry-after')).toBe('5');
    await expectError(first, 504, /did not finish within 1 s\. It goes on: send the same request again/);
    await expectError(await api.post('convert', request), 504, /did not finish within 1 s/);
    const jobs = await app.get(DataSource).query(`SELECT status FROM conversion_jobs WHERE origin = 'key_api'`);
    expect(jobs).toEqual([{ status: 'queued' }]);
  });

  it('the CLI creates a key shown once, lists it without the secret, and revokes it', async () => {
    const cli = (...args: string[]) =>
      spawnSync(process.execPath, [APIKEY_CLI, ...args], { env: { PATH: process.env.PATH, DATABASE_URL: config.databaseUrl }, encoding: 'utf8' });
    const created = cli('create', '--name', 'acme', '--requests-per-minute', '7', '--max-upload-bytes', '2048');
    expect(created.status, created.stderr).toBe(0);
    const secret = /key \(shown once, store it now\): (fsk_\S+)/.exec(created.stdout)?.[1];
    expect(secret).toMatch(/^fsk_[A-Za-z0-9_-]{43}$/);
    expect(created.stdout).toContain('7/min, 10000/day, uploads up to 2048 bytes');

    const client = keyApiClient(baseUrl, secret);
    const listed = await client.post('list_ext_out', { ext_in: 'png' });
    expect(listed.status).toBe(200);
    expect(listed.headers.get('ratelimit-limit')).toBe('7');

    const list = cli('list');
    expect(list.status).toBe(0);
    expect(list.stdout).toContain(`${secret!.slice(0, 12)}…  active  "acme"`);
    expect(list.stdout).not.toContain(secret);
    expect(cli('list', '--json').stdout).not.toContain(secret!.slice(12));

    const revoked = cli('revoke', secret!.slice(0, 12));
    expect(revoked.status).toBe(0);
    expect(revoked.stdout).toContain('revoked API key "acme"');
    // Refused from now on (the HTTP answer to a revoked key is tested with the key API; here the no-key
    // limits of this file, which refused keys count against, may already be spent).
    expect((await app.get(ApiKeysRepository).findBySecret(secret!))?.revokedAt).toBeInstanceOf(Date);
    expect(cli('list').stdout).toMatch(/revoked \d{4}-\d\d-\d\dT.*"acme"/);

    expect(cli('create').status).toBe(64);
    expect(cli('create', '--name', 'x', '--max-upload-bytes', '999999999').stderr).toContain('--max-upload-bytes must be an integer from 1 to 41943040');
    expect(cli('revoke', 'fsk_unknown').stderr).toContain('no active API key');
  });

  it('never writes a key to the logs', async () => {
    const { secret } = await createKey('secretive');
    await keyApiClient(baseUrl, secret).post('list_ext_out', { ext_in: 'png' });
    await keyApiClient(baseUrl, `${secret}x`).post('list_ext_out', { ext_in: 'png' });
    expect(logs).toContain('/api/v1/list_ext_out');
    expect(logs).not.toContain(secret);
    expect(logs).not.toContain(secret.slice(12));
  });
});
