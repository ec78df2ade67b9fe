import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, JobFailedError, parseUsdc, PaymentRequiredError, SpendLimitError } from '../src/index.js';
import { type LiveService, startLiveService } from '@fileshift/testing';
import { balances, devChainPayer, shortWav, tinyPng } from './support/dev-chain.js';

const isWebp = (bytes: Uint8Array) => Buffer.from(bytes.subarray(0, 4)).toString() === 'RIFF' && Buffer.from(bytes.subarray(8, 12)).toString() === 'WEBP';
const isMp3 = (bytes: Uint8Array) => Buffer.from(bytes.subarray(0, 3)).toString() === 'ID3' || (bytes[0] === 0xff && (bytes[1]! & 0xe0) === 0xe0);

describe('SDK against the live service on the dev chain (real settlement)', () => {
  let service: LiveService;
  let chain: ReturnType<typeof balances>;
  const png = { data: tinyPng(), filename: 'dot.png' };

  beforeAll(async () => {
    service = await startLiveService();
    chain = balances(service.devChain);
  });
  afterAll(async () => service?.stop());

  const paying = (overrides: Parameters<typeof devChainPayer>[1] = {}) => createClient({ baseUrl: service.baseUrl, payer: devChainPayer(service.devChain, overrides) });

  it('detects a file, paying 0.002 USDC on chain', async () => {
    const before = await chain.payTo();
    const detected = await paying().detectFile(png);
    expect(detected.detected_format?.format).toBe('png');
    expect(detected.receipt).toMatchObject({ network: service.devChain.network, transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
    expect(await chain.payTo()).toBe(before + 2000n);
  });

  it('without a payer, a paid call is a PaymentRequiredError carrying the challenge', async () => {
    const error = await createClient({ baseUrl: service.baseUrl }).detectFile(png).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaymentRequiredError);
    expect((error as PaymentRequiredError).challenge.accepts[0]).toMatchObject({ amount: '2000', asset: service.devChain.usdc });
  });

  it('convertFile turns a PNG into webp: job fee, polling, result purchase, download', async () => {
    const [payToBefore, payerBefore] = [await chain.payTo(), await chain.payer()];
    const seen: string[] = [];
    const converted = await paying().convertFile({ input: png, targetFormat: 'webp', onProgress: (status) => seen.push(status.status) });
    expect(isWebp(converted.data!)).toBe(true);
    expect(converted).toMatchObject({ filename: 'dot.webp', mimeType: 'image/webp', sizeBytes: converted.data!.length });
    expect(converted.receipts).toHaveLength(2);
    expect(seen.at(-1)).toBe('done');
    expect(await chain.payTo()).toBe(payToBefore + 22_000n);
    expect(await chain.payer()).toBe(payerBefore - 22_000n);
  });

  it('convertFile turns a WAV into mp3 (ffmpeg on the server), as a stream', async () => {
    const converted = await paying().convertFile({ input: { data: shortWav(), filename: 'tone.wav' }, targetFormat: 'mp3', as: 'stream' });
    const bytes = new Uint8Array(await new Response(converted.stream).arrayBuffer());
    expect(isMp3(bytes)).toBe(true);
    expect(converted.mimeType).toBe('audio/mpeg');
  });

  it('a retried conversion with the same idempotency key pays the job fee once', async () => {
    const client = paying();
    const before = await chain.payTo();
    const first = await client.startConversion(png, 'jpg', 'sdk-retry-key-0001');
    const again = await client.startConversion(png, 'jpg', 'sdk-retry-key-0001');
    expect(again.job_id).toBe(first.job_id);
    expect(again.receipt).toBeUndefined();
    expect(await chain.payTo()).toBe(before + 2000n);
  });

  it('a spend cap below the result price refuses it: nothing signed, nothing moved', async () => {
    const payer = devChainPayer(service.devChain, { maxPerPayment: parseUsdc('0.01') });
    const client = createClient({ baseUrl: service.baseUrl, payer });
    const before = await chain.payer();
    const error = await client.convertFile({ input: png, targetFormat: 'gif' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SpendLimitError);
    expect((error as SpendLimitError).limit).toBe('per_payment_cap');
    expect((error as Error).message).toContain('0.02 USDC is over the per-payment cap of 0.01 USDC');
    // Only the job fee (0.002, under the cap) was paid; the 0.02 result was never signed.
    expect(payer.spent()).toBe(2000n);
    expect(await chain.payer()).toBe(before - 2000n);
  });

  it('a failed conversion raises JobFailedError and buys nothing', async () => {
    const corrupt = Uint8Array.from([...tinyPng().subarray(0, 40), ...new Array(200).fill(7)]);
    const before = await chain.payer();
    const error = await paying().convertFile({ input: { data: corrupt, filename: 'broken.png' }, targetFormat: 'webp' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JobFailedError);
    expect((error as JobFailedError).failureType).toBe('unsupported_or_corrupt_input');
    expect(await chain.payer()).toBe(before - 2000n);
  });

  it('an AbortSignal stops convertFile while it polls; the result is not bought', async () => {
    const controller = new AbortController();
    const before = await chain.payer();
    const error = await paying()
      .convertFile({ input: png, targetFormat: 'tiff', signal: controller.signal, onProgress: () => controller.abort(new Error('stopped by the test')) })
      .catch((e: unknown) => e);
    expect((error as Error).message).toBe('stopped by the test');
    expect(await chain.payer()).toBe(before - 2000n);
  });

  it('the key API with an API key: list, upload, convert, download, detect', async () => {
    const client = createClient({ baseUrl: service.baseUrl, apiKey: service.createApiKey('sdk-test') });
    expect(await client.listFormats('png')).toEqual(expect.arrayContaining(['webp', 'jpg']));
    expect((await client.listFormatsByType('wav')).type).toBe('audio');
    const filename = await client.upload(png);
    const converted = await client.convert({ filename, extIn: 'png', extOut: 'webp' });
    expect(converted.urls[0]).toMatch(new RegExp(`^${service.baseUrl}/tmp/[A-Za-z0-9_-]{32}\\.webp$`));
    expect(isWebp(new Uint8Array(await (await fetch(converted.urls[0]!)).arrayBuffer()))).toBe(true);
    expect(await client.detect(png)).toMatch(/PNG/);
    const refused = await createClient({ baseUrl: service.baseUrl, apiKey: `fsk_${'x'.repeat(43)}` }).listFormats('png').catch((e: unknown) => e);
    expect(refused).toMatchObject({ status: 401, message: 'Invalid API key.' });
  });
});
