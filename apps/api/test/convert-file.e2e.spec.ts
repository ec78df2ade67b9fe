import { execFileSync } from 'node:child_process';
import { DataSource } from 'typeorm';
import { DevChain } from '@fileshift/devchain';
import sharp from 'sharp';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobInputKey, jobOutputKey } from '../src/conversion-jobs/job-storage-keys.js';
import { FILE_STORAGE, type FileStorage } from '../src/storage/file-storage.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { runPurgeExpired } from './support/test-queue.js';
import { identifiedPayingFetch, payingFetch } from './support/x402-payer.js';

interface StatusBody {
  status: string;
  [key: string]: unknown;
}

describe('conversion jobs over x402 (real queue, engines and settlement)', () => {
  let chain: DevChain;
  let t: TestApp;
  let pay: typeof fetch;
  let png: Buffer;

  const form = (file: Buffer, fields: Record<string, string | number>) => {
    const body = new FormData();
    for (const [name, value] of Object.entries(fields)) body.append(name, String(value));
    body.append('file', new Blob([file], { type: 'application/octet-stream' }), String(fields.filename ?? 'file'));
    return body;
  };
  const fieldsFor = (file: Buffer, filename: string, target: string) => ({
    target_format: target,
    filename,
    created_at: '2026-11-01T10:00:00Z',
    size_bytes: file.length,
  });
  const convert = (fetcher: typeof fetch, file: Buffer, fields: Record<string, string | number>, headers: Record<string, string> = {}) =>
    fetcher(`${t.baseUrl}/api/x402/v1/convert-file`, { method: 'POST', body: form(file, fields), headers });
  const payTo = () => chain.usdcBalanceOf(chain.payTo);

  async function waitForEnd(statusUrl: string): Promise<StatusBody> {
    for (let i = 0; i < 200; i++) {
      const response = await fetch(statusUrl);
      expect(response.status).toBe(200);
      const body = (await response.json()) as StatusBody;
      if (body.status === 'done' || body.status === 'failed') return body;
      expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('job did not finish');
  }

  beforeAll(async () => {
    chain = await DevChain.start();
    t = await startTestApp({ DEVCHAIN_RPC_URL: chain.rpcUrl });
    pay = payingFetch(chain, privateKeyToAccount(chain.payerPrivateKeys[0]!));
    png = await sharp({ create: { width: 64, height: 40, channels: 3, background: '#cc3300' } }).png().toBuffer();
  });
  afterAll(async () => {
    await t?.close();
    await chain?.stop();
  });

  it('an upload\'s challenge declares Bazaar metadata for a multipart body, as /.well-known/x402.json publishes it', async () => {
    const response = await convert(fetch, png, fieldsFor(png, 'picture.png', 'webp'));
    expect(response.status).toBe(402);
    const challenge = (await response.json()) as { extensions?: { bazaar?: { info: { input: Record<string, unknown> }; schema: object } } };
    expect(challenge.extensions?.bazaar?.info.input).toMatchObject({ type: 'http', method: 'POST', bodyType: 'form-data', body: expect.objectContaining({ target_format: 'md' }) });
    expect(JSON.stringify(challenge.extensions?.bazaar?.schema)).toContain('"status_url"');
    const wellKnown = (await (await fetch(`${t.baseUrl}/.well-known/x402.json`)).json()) as { resources: Array<{ operationId: string; extensions?: unknown }> };
    // All but the signed offers, which each challenge signs afresh.
    const { 'offer-receipt': offers, ...declared } = challenge.extensions as Record<string, unknown>;
    expect(offers).toMatchObject({ info: { offers: expect.any(Array) } });
    expect(wellKnown.resources.find((r) => r.operationId === 'createConversionJob')?.extensions).toEqual(declared);
    expect(Object.keys(wellKnown.resources.find((r) => r.operationId === 'purchaseConversionResult')?.extensions as object)).toEqual(['payment-identifier']);
  });

  it('an upload repeated with its payment identifier (no Idempotency-Key) answers the first job and charges once; another upload with it is 409', async () => {
    const before = await payTo();
    const identified = identifiedPayingFetch(chain, privateKeyToAccount(chain.payerPrivateKeys[4]!), `pay_${crypto.randomUUID().replaceAll('-', '')}`);
    const first = await convert(identified, png, fieldsFor(png, 'repeat.png', 'webp'));
    expect(first.status).toBe(202);
    const again = await convert(identified, png, fieldsFor(png, 'repeat.png', 'webp'));
    expect(again.status).toBe(202);
    const [firstJob, againJob] = [(await first.json()) as { job_id: string }, (await again.json()) as { job_id: string; message?: string }];
    expect(againJob.job_id).toBe(firstJob.job_id);
    expect(againJob.message).toMatch(/payment identifier; no new fee/);
    const other = await convert(identified, png, fieldsFor(png, 'repeat.png', 'avif'));
    expect(other.status).toBe(409);
    expect(await other.json()).toMatchObject({ error: { code: 'conflict', message: expect.stringMatching(/payment identifier was used for a different request/) } });
    expect(await payTo()).toBe(before + 2000n);
  });

  it('PNG → webp: the official client pays the job fee, the job runs, status shows the result price', async () => {
    const before = await payTo();
    const response = await convert(pay, png, fieldsFor(png, 'picture.png', 'webp'));
    expect(response.status).toBe(202);
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const accepted = (await response.json()) as { job_id: string; status: string; status_url: string; retry_after_seconds: number };
    expect(accepted.job_id).toMatch(/^job_[A-Za-z0-9_-]{22,80}$/);
    expect(accepted.status).toBe('processing');
    expect(await payTo()).toBe(before + 2000n);

    const done = await waitForEnd(accepted.status_url);
    expect(done).toMatchObject({
      job_id: accepted.job_id,
      status: 'done',
      input_file_size_bytes: png.length,
      result_available: true,
      result_requires_payment: true,
      price_for_result: { amount: '0.020000', atomic_units: '20000', decimals: 6, currency: 'USDC', pricing_rule: 'file_size_lte_10mb' },
      detected_input_format: 'png',
      target_format: 'webp',
    });
    expect(done.result_url).toBe(`${t.baseUrl}/api/x402/v1/convert-file/${accepted.job_id}/result`);

    // Buy the result: 402 with the tier price, then the paid retry.
    const challenge = await fetch(done.result_url as string);
    expect(challenge.status).toBe(402);
    const resultChallenge = (await challenge.json()) as { accepts: Array<{ amount: string }>; extensions?: unknown };
    expect(resultChallenge.accepts[0]!.amount).toBe('20000');
    // A result's URL is one job's: not a resource a catalogue lists.
    expect(Object.keys(resultChallenge.extensions as object)).toEqual(['payment-identifier', 'offer-receipt']);
    const beforeResult = await payTo();
    const bought = await pay(done.result_url as string);
    expect(bought.status).toBe(200);
    const purchase = (await bought.json()) as {
      status: string;
      download_url: string;
      filename: string;
      mime_type: string;
      result_size_bytes: number;
      payment: { network: string; tx_hash: string; settled_at: string; amount: { atomic_units: string } };
    };
    expect(purchase).toMatchObject({ status: 'paid', filename: 'picture.webp', mime_type: 'image/webp' });
    expect(purchase.payment.amount.atomic_units).toBe('20000');
    expect(purchase.payment.tx_hash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await payTo()).toBe(beforeResult + 20000n);
    // The receipt is the ledger's record of the settlement.
    const [record] = await t.app
      .get(DataSource)
      .query(`SELECT network, amount_atomic, tx_hash, settled_at FROM payment_records WHERE job_id = $1 AND endpoint = 'purchaseConversionResult' AND status = 'settled'`, [accepted.job_id]);
    expect(purchase.payment).toMatchObject({ network: record.network, tx_hash: record.tx_hash, settled_at: new Date(record.settled_at).toISOString(), amount: { atomic_units: record.amount_atomic } });

    const download = await fetch(purchase.download_url);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('image/webp');
    expect(download.headers.get('content-disposition')).toContain('picture.webp');
    const bytes = Buffer.from(await download.arrayBuffer());
    expect(bytes.length).toBe(purchase.result_size_bytes);
    expect(Number(download.headers.get('content-length'))).toBe(bytes.length);
    const meta = await sharp(bytes).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 64, 40]);

    // Bought once: later calls hand out the URL again without charging.
    const again = await fetch(done.result_url as string);
    expect(again.status).toBe(200);
    const redelivered = (await again.json()) as typeof purchase;
    expect(redelivered.download_url).toBe(purchase.download_url);
    expect(redelivered.payment).toEqual(purchase.payment);
    expect(await payTo()).toBe(beforeResult + 20000n);
  });

  it('mp3 → wav through ffmpeg', async () => {
    const mp3 = execFileSync('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=1', '-c:a', 'libmp3lame', '-f', 'mp3', 'pipe:1']);
    const response = await convert(pay, mp3, fieldsFor(mp3, 'tone.mp3', 'wav'));
    expect(response.status).toBe(202);
    const done = await waitForEnd(((await response.json()) as { status_url: string }).status_url);
    expect(done).toMatchObject({ status: 'done', detected_input_format: 'mp3', target_format: 'wav' });
  });

  it('a corrupt input ends in the failed shape with nothing charged for the result', async () => {
    const corrupt = Buffer.concat([png.subarray(0, 60), Buffer.alloc(200, 7)]);
    const response = await convert(pay, corrupt, fieldsFor(corrupt, 'broken.png', 'webp'));
    expect(response.status).toBe(202);
    const failed = await waitForEnd(((await response.json()) as { status_url: string }).status_url);
    expect(failed).toMatchObject({
      status: 'failed',
      failure_type: 'unsupported_or_corrupt_input',
      result_available: false,
      charged_amount: { amount: '0.000000', atomic_units: '0', decimals: 6, currency: 'USDC' },
    });
    const before = await payTo();
    const result = await pay(`${t.baseUrl}/api/x402/v1/convert-file/${failed.job_id}/result`);
    expect(result.status).toBe(409);
    expect(((await result.json()) as { error: { code: string } }).error.code).toBe('conversion_failed');
    expect(await payTo()).toBe(before);
  });

  it('prices the result by uploaded size: 10485760 bytes standard, 10485761 large', async () => {
    for (const [size, atomic, rule] of [[10_485_760, '20000', 'file_size_lte_10mb'], [10_485_761, '40000', 'file_size_gt_10mb_lte_40mb']] as const) {
      const padded = Buffer.concat([png, Buffer.alloc(size - png.length)]);
      const response = await convert(pay, padded, fieldsFor(padded, `big-${size}.png`, 'webp'));
      expect(response.status).toBe(202);
      const done = await waitForEnd(((await response.json()) as { status_url: string }).status_url);
      expect(done).toMatchObject({ status: 'done', input_file_size_bytes: size, price_for_result: { atomic_units: atomic, pricing_rule: rule } });
    }
  });

  it('settles exactly once when 10 payers buy one result concurrently', async () => {
    const response = await convert(pay, png, fieldsFor(png, 'shared.png', 'gif'));
    const done = await waitForEnd(((await response.json()) as { status_url: string }).status_url);
    const before = await payTo();
    const buyers = chain.payerPrivateKeys.slice(0, 7).map((key) => payingFetch(chain, privateKeyToAccount(key)));
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => buyers[i % buyers.length]!(done.result_url as string)));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(1);
    expect(statuses.every((s) => s === 200 || s === 409 || s === 402)).toBe(true);
    expect(await payTo()).toBe(before + 20000n);
  });

  it('the same Idempotency-Key twice makes one job and one fee; other parameters get 409', async () => {
    const before = await payTo();
    const headers = { 'Idempotency-Key': 'key-0123456789' };
    const first = (await (await convert(pay, png, fieldsFor(png, 'same.png', 'jpg'), headers)).json()) as { job_id: string };
    const again = await convert(pay, png, fieldsFor(png, 'same.png', 'jpg'), headers);
    expect(again.status).toBe(202);
    expect(((await again.json()) as { job_id: string }).job_id).toBe(first.job_id);
    const unpaidRetry = await convert(fetch, png, fieldsFor(png, 'same.png', 'jpg'), headers);
    expect(unpaidRetry.status).toBe(202);
    expect(await payTo()).toBe(before + 2000n);
    const other = await convert(pay, png, fieldsFor(png, 'same.png', 'webp'), headers);
    expect(other.status).toBe(409);
    expect(await payTo()).toBe(before + 2000n);
  });

  it('refuses requests that cannot succeed before asking for payment, and charges nothing', async () => {
    const before = await payTo();
    const cases: Array<[Promise<Response>, number, string]> = [
      [convert(pay, png, { ...fieldsFor(png, 'a.png', 'webp'), size_bytes: png.length + 1 }), 422, 'validation_error'],
      [convert(pay, png, fieldsFor(png, 'a.png', 'nope')), 422, 'validation_error'],
      [convert(pay, png, fieldsFor(png, 'a.png', 'mp3')), 422, 'validation_error'],
      [convert(pay, png, fieldsFor(png, 'a.png', 'webp'), { 'Idempotency-Key': 'short' }), 422, 'validation_error'],
      [pay(`${t.baseUrl}/api/x402/v1/convert-file`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'a file' }), 415, 'unsupported_media_type'],
      // JSON names the file by source_url (source-urls.e2e.spec.ts): without one it is a bad field.
      [pay(`${t.baseUrl}/api/x402/v1/convert-file`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }), 422, 'validation_error'],
      [
        pay(`${t.baseUrl}/api/x402/v1/convert-file`, {
          method: 'POST',
          headers: { 'content-type': 'multipart/form-data; boundary=xyz' },
          body: '--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\ntruncated, no closing boundary',
        }),
        400,
        'bad_request',
      ],
    ];
    for (const [request, status, code] of cases) {
      const response = await request;
      expect(response.status).toBe(status);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe(code);
    }
    const tooBig = Buffer.alloc(41_943_041, 1);
    const response = await convert(pay, tooBig, fieldsFor(tooBig, 'big.bin', 'webp'));
    expect(response.status).toBe(413);
    expect(await payTo()).toBe(before);
  });

  it('a target_format that is unknown or unreachable gets 422 listing the valid targets; aliases are accepted', async () => {
    const before = await payTo();
    const catalogue = (await (await fetch(`${t.baseUrl}/api/x402/v1/formats`)).json()) as { formats: Array<{ id: string; targets: Array<{ format: string }> }> };
    const pngTargets = catalogue.formats.find((format) => format.id === 'png')!.targets.map((target) => target.format).sort();
    const everyTarget = [...new Set(catalogue.formats.flatMap((format) => format.targets.map((target) => target.format)))].sort();
    type Refusal = { error: { code: string; message: string; details: { source_format: string | null; valid_targets: string[]; fields: Array<{ field: string }> } } };

    const misspelt = await convert(pay, png, fieldsFor(png, 'a.png', 'wepb'));
    expect(misspelt.status).toBe(422);
    const misspeltBody = (await misspelt.json()) as Refusal;
    expect(misspeltBody.error.code).toBe('validation_error');
    expect(misspeltBody.error.details).toMatchObject({ source_format: 'png', valid_targets: pngTargets, fields: [{ field: 'target_format' }] });
    expect(misspeltBody.error.message).toContain('webp');

    const unreachable = await convert(pay, png, fieldsFor(png, 'a.png', 'mp3'));
    expect(unreachable.status).toBe(422);
    expect(((await unreachable.json()) as Refusal).error.details).toMatchObject({ source_format: 'png', valid_targets: pngTargets });

    // Bytes with no signature any detector knows.
    const noise = Buffer.from(Array.from({ length: 100 }, (_, i) => (i * 167 + 13) & 0xff));
    const unknownSource = await convert(pay, noise, fieldsFor(noise, 'a.bin', 'wepb'));
    expect(unknownSource.status).toBe(422);
    expect(((await unknownSource.json()) as Refusal).error.details).toMatchObject({ source_format: null, valid_targets: everyTarget });
    expect(everyTarget.length).toBeGreaterThan(pngTargets.length);
    expect(await payTo()).toBe(before);

    const alias = await convert(pay, png, fieldsFor(png, 'a.png', 'jpeg'));
    expect(alias.status).toBe(202);
  });

  it('DELETE removes input, result and details at once; the job then answers 410', async () => {
    const response = await convert(pay, png, fieldsFor(png, 'gone.png', 'webp'));
    const { job_id: jobId, status_url: statusUrl } = (await response.json()) as { job_id: string; status_url: string };
    await waitForEnd(statusUrl);
    const storage = t.app.get<FileStorage>(FILE_STORAGE);
    const files = [jobInputKey(jobId), jobOutputKey(jobId, 'webp')];
    expect(await Promise.all(files.map((key) => storage.exists(key)))).toEqual([true, true]);
    const deleted = await fetch(`${t.baseUrl}/api/x402/v1/convert-file/${jobId}/delete`, { method: 'DELETE' });
    expect(deleted.status).toBe(200);
    expect(await deleted.json()).toEqual({ success: true, message: expect.any(String) });
    expect(await Promise.all(files.map((key) => storage.exists(key)))).toEqual([false, false]);
    for (const [method, path] of [['GET', 'status'], ['GET', 'result'], ['DELETE', 'delete']]) {
      const after = await fetch(`${t.baseUrl}/api/x402/v1/convert-file/${jobId}/${path}`, { method });
      expect(after.status, path).toBe(410);
    }
  });

  it('expires jobs after their 24 hours (410 at once, files purged by the scheduled job) and download URLs after one hour', async () => {
    const response = await convert(pay, png, fieldsFor(png, 'old.png', 'webp'));
    const { job_id: jobId, status_url: statusUrl } = (await response.json()) as { job_id: string; status_url: string };
    const done = await waitForEnd(statusUrl);
    const bought = (await (await pay(done.result_url as string)).json()) as { download_url: string };
    expect((await fetch(bought.download_url)).status).toBe(200);

    const db = t.app.get(DataSource);
    await db.query(`UPDATE x402_result_purchases SET download_expires_at = now() - interval '1 second' WHERE job_id = $1`, [jobId]);
    expect((await fetch(bought.download_url)).status).toBe(410);
    const renewed = (await (await fetch(done.result_url as string)).json()) as { download_url: string };
    expect(renewed.download_url).not.toBe(bought.download_url);
    expect((await fetch(renewed.download_url)).status).toBe(200);

    await db.query(`UPDATE conversion_jobs SET expires_at = now() - interval '1 second' WHERE id = $1`, [jobId]);
    expect((await fetch(statusUrl)).status).toBe(410);
    expect(await runPurgeExpired({ redisUrl: t.config.redisUrl, prefix: t.config.queuePrefix, databaseUrl: t.config.databaseUrl! })).toEqual({ purged: 1, purgedUploads: 0 });
    const storage = t.app.get<FileStorage>(FILE_STORAGE);
    expect(await Promise.all([jobInputKey(jobId), jobOutputKey(jobId, 'webp')].map((key) => storage.exists(key)))).toEqual([false, false]);
    const gone = await fetch(statusUrl);
    expect(gone.status).toBe(410);
    expect(((await gone.json()) as { error: { message: string } }).error.message).toContain('expired');
  });

  it('status answers 400 for a malformed id and 404 for an unknown one', async () => {
    expect((await fetch(`${t.baseUrl}/api/x402/v1/convert-file/nope/status`)).status).toBe(400);
    const unknown = await fetch(`${t.baseUrl}/api/x402/v1/convert-file/job_${'A'.repeat(32)}/status`);
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: { code: string } }).error.code).toBe('not_found');
  });
});
