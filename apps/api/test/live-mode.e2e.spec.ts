import { DevChain, LocalFacilitatorClient } from '@fileshift/devchain';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpFacilitator } from './support/http-facilitator.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { type Challenge, encodeBase64Json, signedPayment } from './support/x402-payer.js';
import { newSigningKeyPem } from './support/signing-key.js';

const SOLANA = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp';
const SOLANA_PAY_TO = '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin';
const SOLANA_FEE_PAYER = 'EwWqGE4ZFKLofuestmU4LDdK7XM1N4ALgdZccwYugwGd';
const body = JSON.stringify({ filename: 'a.txt', size_bytes: 12, header_first_200_bytes_base64: Buffer.from('hello world\n').toString('base64') });

describe('live mode: a remote facilitator over HTTP, EVM and Solana offered', () => {
  let chain: DevChain;
  let facilitator: Awaited<ReturnType<typeof startHttpFacilitator>>;
  let t: TestApp;
  let url: string;

  beforeAll(async () => {
    chain = await DevChain.start();
    facilitator = await startHttpFacilitator(new LocalFacilitatorClient(chain), [
      { x402Version: 2, scheme: 'exact', network: SOLANA, extra: { feePayer: SOLANA_FEE_PAYER } },
    ]);
    t = await startTestApp({
      ROLE: 'api',
      PAYMENTS_MODE: 'live',
      FACILITATOR_URL: facilitator.url,
      FACILITATOR_AUTH_HEADERS: JSON.stringify({ Authorization: 'Bearer test-token' }),
      X402_EVM_NETWORK: chain.network,
      X402_EVM_ASSET: chain.usdcAddress,
      X402_EVM_PAY_TO: chain.payTo,
      X402_SVM_PAY_TO: SOLANA_PAY_TO,
      RECEIPT_SIGNING_KEY: newSigningKeyPem(),
    });
    url = `${t.baseUrl}/api/x402/v1/detect-file-type`;
  });
  afterAll(async () => {
    await t?.close();
    await facilitator?.close();
    await chain?.stop();
  });

  const post = (headers: Record<string, string> = {}) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });

  it('challenges with every configured network, Solana with the facilitator fee payer', async () => {
    const response = await post();
    expect(response.status).toBe(402);
    const challenge = (await response.json()) as Challenge;
    expect(challenge.accepts.map((a) => a.network)).toEqual([chain.network, SOLANA]);
    expect(challenge.accepts[1]).toMatchObject({
      scheme: 'exact',
      amount: '2000',
      asset: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
      payTo: SOLANA_PAY_TO,
      extra: { feePayer: SOLANA_FEE_PAYER },
    });
    expect(facilitator.requests).toContain('GET /supported');
  });

  it('says live in /.well-known/x402.json, with no dev chain', async () => {
    const discovery = (await (await fetch(`${t.baseUrl}/.well-known/x402.json`)).json()) as { paymentsMode: string; devChain?: unknown };
    expect(discovery.paymentsMode).toBe('live');
    expect(discovery.devChain).toBeUndefined();
  });

  it('routes an EVM payment through the remote facilitator and settles it', async () => {
    const challenge = (await (await post()).json()) as Challenge;
    const before = await chain.usdcBalanceOf(chain.payTo);
    const payment = await signedPayment(privateKeyToAccount(chain.payerPrivateKeys[0]!), challenge.accepts[0]!);
    const response = await post({ 'PAYMENT-SIGNATURE': encodeBase64Json(payment) });
    expect(response.status).toBe(200);
    expect(await chain.usdcBalanceOf(chain.payTo)).toBe(before + 2000n);
    expect(facilitator.requests).toEqual(expect.arrayContaining(['POST /verify', 'POST /settle']));
  });

  it('answers 503 with Retry-After and charges nothing when the facilitator is down', async () => {
    const challenge = (await (await post()).json()) as Challenge;
    const payment = await signedPayment(privateKeyToAccount(chain.payerPrivateKeys[1]!), challenge.accepts[0]!);
    const before = await chain.usdcBalanceOf(chain.payTo);
    await facilitator.close();
    const response = await post({ 'PAYMENT-SIGNATURE': encodeBase64Json(payment) });
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('5');
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('dependency_unavailable');
    expect(await chain.usdcBalanceOf(chain.payTo)).toBe(before);
  });
});
