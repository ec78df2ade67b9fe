import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countingProxy, type LiveService, startLiveService } from '@fileshift/testing';
import { createClient } from '../src/index.js';
import { anvilPayerAccount, devChainPayer, recordingFetch, toneWav, usdcBalanceOf } from './support/dev-chain.js';

const RESULT_PRICE = 20_000n;

/**
 * The job fee paid on the first request once the payer knows the challenge: the file crosses the wire once, counted
 * in bytes by a proxy (not a mock); requirements that went stale are paid after one retry, never twice.
 */
describe('x402 API: a paid conversion uploads its file once (real settlement, bytes counted by a proxy)', () => {
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

  it('the first conversion of a payer sends the file twice (challenge, then paid); every later one sends it once', async () => {
    const client = createClient({ baseUrl: proxy.url, payer: devChainPayer(service.devChain, account) });
    const sentBefore = proxy.sent();
    await client.convertFile({ input: wav, targetFormat: 'flac' });
    const first = proxy.sent() - sentBefore;
    expect(first).toBeGreaterThan(2 * fileBytes);

    for (let i = 0; i < 2; i++) {
      const before = proxy.sent();
      const converted = await client.convertFile({ input: wav, targetFormat: 'flac' });
      expect(converted.receipts).toHaveLength(2);
      const sent = proxy.sent() - before;
      expect(sent, `${sent} bytes sent for a ${fileBytes}-byte file`).toBeLessThanOrEqual(1.05 * fileBytes);
    }
  });

  it('a job fee that changed since the challenge was seen is paid after one retry, and once', async () => {
    const stale = await startLiveService({ PRICE_JOB_ATOMIC: '3000' });
    try {
      // The dev chains of both services are fresh anvils: the same chain, token and payTo, so one payer serves both.
      expect(stale.devChain).toMatchObject({ network: service.devChain.network, usdc: service.devChain.usdc, payTo: service.devChain.payTo });
      proxy.pointAt(service.baseUrl);
      const recorder = recordingFetch();
      const client = createClient({ baseUrl: proxy.url, payer: devChainPayer(service.devChain, account), fetch: recorder.fetch });
      await client.convertFile({ input: { data: toneWav(1), filename: 'tone.wav' }, targetFormat: 'flac' });

      proxy.pointAt(stale.baseUrl);
      const balance = usdcBalanceOf(stale.devChain);
      const before = await balance(account.address);
      const seen = recorder.requests.length;
      const converted = await client.convertFile({ input: { data: toneWav(1), filename: 'tone.wav' }, targetFormat: 'flac' });
      const starts = recorder.requests.slice(seen).filter((request) => request.path === '/api/x402/v1/convert-file');
      // Paid with the old requirements (refused with a new challenge), then paid once more with the new ones.
      expect(starts.map((request) => request.signed)).toEqual([true, true]);
      expect(converted.receipts[0]).toMatchObject({ amount: '3000' });
      expect(await balance(account.address)).toBe(before - 3_000n - RESULT_PRICE);
    } finally {
      proxy.pointAt(service.baseUrl);
      await stale.stop();
    }
  });
});
