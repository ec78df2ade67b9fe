import { DevChain, devChainDefinition, TEST_USDC_ABI } from '@fileshift/devchain';
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import { createWalletClient, http } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PaymentRecord } from '../src/payments/payment-record.entity.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { type Challenge, decodeBase64Json, encodeBase64Json, payingClient, payingFetch, signedPayment } from './support/x402-payer.js';

const PNG_HEADER = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex').toString('base64');
const detectBody = { filename: 'picture.jpg', size_bytes: 4096, header_first_200_bytes_base64: PNG_HEADER };

describe('x402 payments on the dev chain (real settlement)', () => {
  let chain: DevChain;
  let t: TestApp;
  let url: string;
  let accepted: PaymentRequirements;

  const post = (headers: Record<string, string> = {}, body: unknown = detectBody) =>
    fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const payTo = () => chain.usdcBalanceOf(chain.payTo);
  const payer = (index: number) => privateKeyToAccount(chain.payerPrivateKeys[index]!);
  const records = () => t.app.get(DataSource).getRepository(PaymentRecord);

  async function expectRefused(response: Response, reason: RegExp) {
    expect(response.status).toBe(402);
    const body = (await response.json()) as Challenge;
    expect(body.x402Version).toBe(2);
    expect(body.accepts.length).toBeGreaterThan(0);
    expect(body.error).toMatch(reason);
    expect(decodeBase64Json<Challenge>(response.headers.get('payment-required')).error).toBe(body.error);
  }

  beforeAll(async () => {
    chain = await DevChain.start();
    t = await startTestApp({ DEVCHAIN_RPC_URL: chain.rpcUrl, ROLE: 'api' });
    url = `${t.baseUrl}/api/x402/v1/detect-file-type`;
    const challenge = await post();
    accepted = ((await challenge.json()) as Challenge).accepts[0]!;
  });
  afterAll(async () => {
    await t?.close();
    await chain?.stop();
  });

  it('answers an unpaid request 402 with the challenge in the header and the body', async () => {
    const response = await post();
    expect(response.status).toBe(402);
    const body = (await response.json()) as Challenge;
    expect(body).toMatchObject({ x402Version: 2, resource: { url } });
    // Dev mode offers both dev chains; solana-dev-payments.e2e.spec.ts pays on the second.
    expect(body.accepts).toEqual([
      expect.objectContaining({ scheme: 'exact', network: 'eip155:31337', amount: '2000', asset: chain.usdcAddress, payTo: chain.payTo }),
      expect.objectContaining({ scheme: 'exact', network: 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1', amount: '2000' }),
    ]);
    expect(decodeBase64Json(response.headers.get('payment-required'))).toEqual(body);
  });

  it('declares Bazaar discovery metadata in the challenge, as /.well-known/x402.json publishes it, in a header clients take', async () => {
    const response = await post();
    const body = (await response.json()) as Challenge & { extensions?: { bazaar?: { info: { input: Record<string, unknown> } } } };
    expect(body.extensions?.bazaar?.info.input).toMatchObject({ type: 'http', method: 'POST', bodyType: 'json', body: expect.objectContaining({ filename: expect.any(String) }) });
    const wellKnown = (await (await fetch(`${t.baseUrl}/.well-known/x402.json`)).json()) as { resources: Array<{ operationId: string; extensions?: unknown }> };
    // All but the signed offers, which each challenge signs afresh.
    const { 'offer-receipt': offers, ...declared } = body.extensions as Record<string, unknown>;
    expect(offers).toMatchObject({ info: { offers: expect.any(Array) } });
    expect(wellKnown.resources.find((r) => r.operationId === 'detectFileType')?.extensions).toEqual(declared);
    // undici and Node refuse response headers past 16 KiB in all: the challenge (two networks, their signed offers,
    // Bazaar's schemas) leaves a quarter of that to the rest.
    expect(response.headers.get('payment-required')!.length).toBeLessThan(12_288);
  });

  it('the official @x402/fetch client pays a detection: 200, a settled receipt, payTo +2000 exactly', async () => {
    const before = await payTo();
    const response = await payingFetch(chain, payer(0))(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(detectBody),
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { detected_format: { format: string } };
    expect(body.detected_format.format).toBe('png');
    const receipt = decodeBase64Json<{ success: boolean; transaction: string; network: string }>(response.headers.get('payment-response'));
    expect(receipt).toMatchObject({ success: true, network: 'eip155:31337' });
    expect(receipt.transaction).toMatch(/^0x[0-9a-f]{64}$/);
    // The dev facilitator's share of the wait: its two calls to the chain.
    expect(response.headers.get('server-timing')).toMatch(/^x402-verify;dur=\d+\.\d{2}, x402-settle;dur=\d+\.\d{2}$/);
    expect(await payTo()).toBe(before + 2000n);
    const record = await records().findOneByOrFail({ txHash: receipt.transaction });
    expect(record).toMatchObject({ status: 'settled', endpoint: 'detectFileType', amountAtomic: '2000', network: 'eip155:31337', payer: payer(0).address });
  });

  it('accepts a v1-shaped payload in the legacy X-PAYMENT header', async () => {
    const before = await payTo();
    const v2 = await signedPayment(payer(1), accepted);
    const v1 = { x402Version: 1, scheme: 'exact', network: 'eip155:31337', payload: v2.payload };
    const response = await post({ 'X-PAYMENT': encodeBase64Json(v1) });
    expect(response.status).toBe(200);
    expect(await payTo()).toBe(before + 2000n);
  });

  it('refuses each bad payment with its reason and moves no funds', async () => {
    const before = await payTo();
    const now = Math.floor(Date.now() / 1000);
    const broke = privateKeyToAccount(generatePrivateKey());
    const tampered = await signedPayment(payer(2), accepted);
    (tampered.payload as { signature: string }).signature = `${(tampered.payload as { signature: string }).signature.slice(0, -4)}0000`;
    const cases: Array<[string, Record<string, string>, RegExp]> = [
      ['not base64', { 'PAYMENT-SIGNATURE': '%%%' }, /invalid_payment_header/],
      ['not JSON', { 'PAYMENT-SIGNATURE': Buffer.from('{"x402Version":').toString('base64') }, /invalid_payment_header/],
      ['wrong network', { 'PAYMENT-SIGNATURE': encodeBase64Json(await signedPayment(payer(2), { ...accepted, network: 'eip155:8453' })) }, /no matching/i],
      ['wrong asset', { 'PAYMENT-SIGNATURE': encodeBase64Json(await signedPayment(payer(2), { ...accepted, asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913' })) }, /no matching/i],
      ['wrong payTo', { 'PAYMENT-SIGNATURE': encodeBase64Json(await signedPayment(payer(2), { ...accepted, payTo: payer(3).address })) }, /no matching/i],
      ['wrong amount', { 'PAYMENT-SIGNATURE': encodeBase64Json(await signedPayment(payer(2), { ...accepted, amount: '1000' })) }, /no matching/i],
      ['authorization for too little', { 'PAYMENT-SIGNATURE': encodeBase64Json(await signedPayment(payer(2), accepted, { value: '1000' })) }, /amount|value/i],
      ['expired', { 'PAYMENT-SIGNATURE': encodeBase64Json(await signedPayment(payer(2), accepted, { validBefore: String(now - 60) })) }, /valid_before|expired/i],
      ['not yet valid', { 'PAYMENT-SIGNATURE': encodeBase64Json(await signedPayment(payer(2), accepted, { validAfter: String(now + 3600) })) }, /valid_after|not.*valid/i],
      ['insufficient balance', { 'PAYMENT-SIGNATURE': encodeBase64Json(await signedPayment(broke, accepted)) }, /balance|simulation/i],
      ['bad signature', { 'PAYMENT-SIGNATURE': encodeBase64Json(tampered) }, /signature/i],
    ];
    for (const [name, headers, reason] of cases) {
      const response = await post(headers);
      expect(response.status, name).toBe(402);
      await expectRefused(response, reason);
    }
    expect(await payTo()).toBe(before);
  });

  it('a payment refused for want of funds is accepted when presented again once the payer has them', async () => {
    const newcomer = privateKeyToAccount(generatePrivateKey());
    const header = encodeBase64Json(await signedPayment(newcomer, accepted));
    await expectRefused(await post({ 'PAYMENT-SIGNATURE': header }), /balance|simulation/i);
    expect(await records().countBy({ payer: newcomer.address })).toBe(0);

    const funder = createWalletClient({ account: payer(6), chain: devChainDefinition(chain.rpcUrl), transport: http(chain.rpcUrl) });
    const funding = await funder.writeContract({ address: chain.usdcAddress, abi: TEST_USDC_ABI, functionName: 'transfer', args: [newcomer.address, 10_000n] });
    await chain.publicClient.waitForTransactionReceipt({ hash: funding });

    const before = await payTo();
    expect((await post({ 'PAYMENT-SIGNATURE': header })).status).toBe(200);
    expect(await payTo()).toBe(before + 2000n);
    expect(await records().findBy({ payer: newcomer.address })).toEqual([expect.objectContaining({ status: 'settled' })]);
  });

  it('refuses a replayed payload', async () => {
    const payment = await signedPayment(payer(3), accepted);
    expect((await post({ 'PAYMENT-SIGNATURE': encodeBase64Json(payment) })).status).toBe(200);
    const before = await payTo();
    await expectRefused(await post({ 'PAYMENT-SIGNATURE': encodeBase64Json(payment) }), /payment_already_used|nonce|authorization/i);
    expect(await payTo()).toBe(before);
  });

  it('settles 20 concurrent payments exactly 20 times', async () => {
    const before = await payTo();
    const client = payingClient(chain, payer(4));
    const payments: PaymentPayload[] = await Promise.all(
      Array.from({ length: 20 }, () => client.createPaymentPayload({ x402Version: 2, resource: { url }, accepts: [accepted] })),
    );
    const responses = await Promise.all(payments.map((payment) => post({ 'PAYMENT-SIGNATURE': encodeBase64Json(payment) })));
    expect(responses.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(await payTo()).toBe(before + 20n * 2000n);
  });

  it('settles the same signed payload sent 5 times concurrently exactly once', async () => {
    const before = await payTo();
    const header = encodeBase64Json(await signedPayment(payer(5), accepted));
    const responses = await Promise.all(Array.from({ length: 5 }, () => post({ 'PAYMENT-SIGNATURE': header })));
    expect(responses.map((r) => r.status).sort()).toEqual([200, 402, 402, 402, 402]);
    expect(await payTo()).toBe(before + 2000n);
  });

  it('refuses an invalid body with a valid payment 422, before any challenge, and moves no funds', async () => {
    const before = await payTo();
    const header = encodeBase64Json(await signedPayment(payer(6), accepted));
    const response = await post({ 'PAYMENT-SIGNATURE': header }, { ...detectBody, size_bytes: 'many' });
    expect(response.status).toBe(422);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('validation_error');
    expect(await payTo()).toBe(before);
  });

  it('answers 503 with Retry-After and charges nothing when the chain is down', async () => {
    const header = encodeBase64Json(await signedPayment(payer(6), accepted));
    await chain.stop();
    const response = await post({ 'PAYMENT-SIGNATURE': header });
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('5');
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('dependency_unavailable');
    expect(body.error.message).toMatch(/nothing was charged/);
  });
});
