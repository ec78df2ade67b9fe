/**
 * Live mode's Solana routing: the service offers Solana as configured (X402_SVM_*), takes the fee payer from the
 * remote facilitator's /supported, and sends each Solana payment to that facilitator over HTTP. The facilitator is
 * the official SVM scheme on the local Solana (@fileshift/devchain), so the payment really executes there.
 */
import { LocalSolanaFacilitatorClient, SolanaDevChain } from '@fileshift/devchain';
import type { PaymentRequired } from '@x402/core/types';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PaymentRecord } from '../src/payments/payment-record.entity.js';
import { startHttpFacilitator } from './support/http-facilitator.js';
import { newSigningKeyPem } from './support/signing-key.js';
import { paymentSignedFor, signatureStatus, solanaPayer, solanaPayingFetch } from './support/solana-payer.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { decodeBase64Json, encodeBase64Json } from './support/x402-payer.js';

const body = JSON.stringify({ filename: 'a.txt', size_bytes: 12, header_first_200_bytes_base64: Buffer.from('hello world\n').toString('base64') });

describe('live mode: Solana payments through a remote facilitator over HTTP', () => {
  let solana: SolanaDevChain;
  let facilitator: Awaited<ReturnType<typeof startHttpFacilitator>>;
  let t: TestApp;
  let url: string;

  beforeAll(async () => {
    solana = await SolanaDevChain.start();
    facilitator = await startHttpFacilitator(await LocalSolanaFacilitatorClient.start(solana));
    t = await startTestApp({
      ROLE: 'api',
      PAYMENTS_MODE: 'live',
      FACILITATOR_URL: facilitator.url,
      X402_SVM_NETWORK: solana.network,
      X402_SVM_ASSET: solana.usdcMint,
      X402_SVM_PAY_TO: solana.payTo,
      RECEIPT_SIGNING_KEY: newSigningKeyPem(),
    });
    url = `${t.baseUrl}/api/x402/v1/detect-file-type`;
  });
  afterAll(async () => {
    await t?.close();
    await facilitator?.close();
    await solana?.stop();
  });

  const post = (fetcher: typeof fetch, headers: Record<string, string> = {}) => fetcher(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });

  it('challenges with the configured mint and payTo, and the remote facilitator\'s fee payer', async () => {
    const challenge = (await (await post(fetch)).json()) as PaymentRequired;
    expect(challenge.accepts).toEqual([
      expect.objectContaining({ scheme: 'exact', network: solana.network, asset: solana.usdcMint, amount: '2000', payTo: solana.payTo, extra: { feePayer: solana.feePayer } }),
    ]);
    expect(facilitator.requests).toContain('GET /supported');
  });

  it('the official client pays; the remote facilitator verifies and settles; the chain executed what the ledger records', async () => {
    const payer = await solanaPayer(solana, 0);
    const before = await solana.usdcBalanceOf(solana.payTo);
    const response = await post(solanaPayingFetch(solana, payer));
    expect(response.status).toBe(200);
    expect(((await response.json()) as { detected: boolean }).detected).toBe(true);
    const settlement = decodeBase64Json<{ success: boolean; network: string; transaction: string; payer: string }>(response.headers.get('payment-response'));
    expect(settlement).toMatchObject({ success: true, network: solana.network, payer: payer.address });
    expect(facilitator.requests).toEqual(expect.arrayContaining(['POST /verify', 'POST /settle']));
    expect(await solana.usdcBalanceOf(solana.payTo)).toBe(before + 2000n);
    expect(await signatureStatus(solana, settlement.transaction)).toMatchObject({ err: null, confirmationStatus: 'finalized' });
    const record = await t.app.get(DataSource).getRepository(PaymentRecord).findOneByOrFail({ txHash: settlement.transaction });
    expect(record).toMatchObject({ status: 'settled', network: solana.network, payer: payer.address, amountAtomic: '2000', asset: solana.usdcMint, payTo: solana.payTo });
  });

  it('refuses a payment for less than the price: 402, nothing moves', async () => {
    const payer = await solanaPayer(solana, 1);
    const before = await solana.usdcBalanceOf(solana.payTo);
    const challenge = (await (await post(fetch)).json()) as PaymentRequired;
    const cheap = await paymentSignedFor(solana, payer, challenge, { amount: '1000' });
    const response = await post(fetch, { 'PAYMENT-SIGNATURE': encodeBase64Json(cheap) });
    expect(response.status).toBe(402);
    expect(((await response.json()) as PaymentRequired).error).toMatch(/amount_mismatch/);
    expect(await solana.usdcBalanceOf(solana.payTo)).toBe(before);
  });
});
