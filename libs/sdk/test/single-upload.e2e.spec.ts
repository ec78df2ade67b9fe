import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countingProxy, type LiveService, startLiveService } from '@fileshift/testing';
import { createClient } from '../src/index.js';
import { anvilPayerAccount, devChainPayer, recordingFetch, tinyPng, toneWav, usdcBalanceOf, usdcTransfersFrom } from './support/dev-chain.js';

const DETECT_PRICE = 2_000n;
const RESULT_PRICE = 20_000n;
const START = '/api/x402/v1/convert-file';

/**
 * The job fee paid on the first request, signed from the challenge the service publishes in /.well-known/x402.json:
 * the file crosses the wire once from a payer's first conversion on, counted in bytes by a proxy (not a mock);
 * published requirements that went stale are paid after one retry, and settled once.
 */
describe('x402 API: a paid conversion uploads its file once, the first of a new payer too (real settlement, bytes counted by a proxy)', () => {
  const account = anvilPayerAccount(5);
  let service: LiveService;
  let proxy: Awaited<ReturnType<typeof countingProxy>>;
  // Two minutes of 8 kHz audio: 1.9 MB, so the requests around the upload weigh little.
  const wav = { data: toneWav(120), filename: 'long.wav' };
  const fileBytes = toneWav(120).length;

  beforeAll(async () => {
    service = await startLiveService();
    proxy = await countingProxy(service.baseUrl);
  });
  afterAll(async () => {
    await proxy?.close();
    await service?.stop();
  });

  it('a new payer\'s first conversion sends the file once, its job fee signed before any 402; so does every later one', async () => {
    const recorder = recordingFetch();
    const client = createClient({ baseUrl: proxy.url, payer: devChainPayer(service.devChain, account), fetch: recorder.fetch });
    for (let i = 0; i < 3; i++) {
      const before = proxy.sent();
      const seen = recorder.requests.length;
      const converted = await client.convertFile({ input: wav, targetFormat: 'flac' });
      const sent = proxy.sent() - before;
      expect(sent, `conversion ${i + 1}: ${sent} bytes sent for a ${fileBytes}-byte file`).toBeLessThanOrEqual(1.05 * fileBytes);
      expect(converted.receipts).toHaveLength(2);
      expect(recorder.requests.slice(seen).filter((request) => request.path === START).map((request) => request.signed)).toEqual([true]);
    }
    // The discovery document: read by each conversion for its prices (its spend plan), and once by the payer.
    expect(recorder.requests.filter((request) => request.path === '/.well-known/x402.json')).toHaveLength(3 + 1);
  });

  it('a job fee that changed since it was published is paid after one retry, and settled once', async () => {
    const stale = await startLiveService({ PRICE_JOB_ATOMIC: '3000' });
    try {
      // The dev chains of both services are fresh anvils: the same chain, token and payTo, so one payer serves both.
      expect(stale.devChain).toMatchObject({ network: service.devChain.network, usdc: service.devChain.usdc, payTo: service.devChain.payTo });
      const payer = anvilPayerAccount(6);
      const recorder = recordingFetch();
      const client = createClient({ baseUrl: proxy.url, payer: devChainPayer(service.devChain, payer), fetch: recorder.fetch });
      // The payer reads what the first service publishes (a job fee of 2000) while paying a detection there.
      await client.detectFile({ data: tinyPng(), filename: 'tiny.png' });

      proxy.pointAt(stale.baseUrl);
      const before = await usdcBalanceOf(stale.devChain)(payer.address);
      const seen = recorder.requests.length;
      const converted = await client.convertFile({ input: { data: toneWav(1), filename: 'tone.wav' }, targetFormat: 'flac' });
      const starts = recorder.requests.slice(seen).filter((request) => request.path === START);
      // Signed from the published requirements (refused with the current challenge), then signed once more for it.
      expect(starts.map(({ signed, amount }) => ({ signed, amount }))).toEqual([
        { signed: true, amount: '2000' },
        { signed: true, amount: '3000' },
      ]);
      expect(converted.receipts[0]).toMatchObject({ amount: '3000' });
      // Settled on the chain: the job fee and the result here, the detection alone on the first service's chain.
      expect(await usdcTransfersFrom(stale.devChain)(payer.address)).toEqual([3_000n, RESULT_PRICE]);
      expect(await usdcTransfersFrom(service.devChain)(payer.address)).toEqual([DETECT_PRICE]);
      expect(await usdcBalanceOf(stale.devChain)(payer.address)).toBe(before - 3_000n - RESULT_PRICE);
    } finally {
      proxy.pointAt(service.baseUrl);
      await stale.stop();
    }
  });
});
