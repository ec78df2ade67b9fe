import { afterEach, describe, expect, it } from 'vitest';
import { createClient, PaymentRequiredError, RateLimitedError } from '../src/index.js';
import { CLOCK_START, recordingClock } from './support/recording-clock.js';
import { startStubService, type StubAnswer } from './support/stub-service.js';

const challenge = {
  x402Version: 2,
  error: 'payment_already_used',
  resource: { url: 'http://stub/api/x402/v1/detect-file-type' },
  accepts: [{ scheme: 'exact', network: 'eip155:31337', amount: '2000', asset: '0x5FbDB2315678afecb367f032d93F642f64180aa3', payTo: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC', maxTimeoutSeconds: 300 }],
};
const png = { data: new Uint8Array([0x89, 0x50, 0x4e, 0x47]), filename: 'dot.png' };

describe('error answers become typed errors with what they say (stub service: client logic only)', () => {
  let stub: Awaited<ReturnType<typeof startStubService>> | undefined;
  afterEach(async () => stub?.close());
  const clientAnswering = async (answer: StubAnswer) => {
    stub = await startStubService(() => answer);
    return createClient({ baseUrl: stub.baseUrl, clock: recordingClock().clock });
  };

  it('a 402 whose challenge is only in the PAYMENT-REQUIRED header: PaymentRequiredError with the decoded challenge', async () => {
    const client = await clientAnswering({ status: 402, headers: { 'PAYMENT-REQUIRED': btoa(JSON.stringify(challenge)) }, body: {} });
    const error = await client.detectFile(png).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaymentRequiredError);
    expect((error as PaymentRequiredError).challenge).toEqual(challenge);
    expect((error as Error).message).toBe('Payment required: payment_already_used');
  });

  it('a 429 with Retry-After as an HTTP date: RateLimitedError with the seconds until then', async () => {
    const client = await clientAnswering({ status: 429, headers: { 'Retry-After': new Date(CLOCK_START + 42_000).toUTCString() }, body: { error: { code: 'rate_limited', message: 'Too many requests.' } } });
    const error = await client.detectFile(png).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect((error as RateLimitedError).retryAfter).toBe(42);
  });
});
