/**
 * Solana payments, as far as this machine allows (no Solana validator or RPC here).
 *
 * Real: the service in live mode (challenge, routing to the remote facilitator over HTTP, ledger);
 * the official SVM client (@x402/svm) building and signing the payment transaction from the real 402
 * challenge; the official SVM facilitator scheme verifying it (instructions, amount, mint, recipient's
 * token account, fee payer) and co-signing it as fee payer.
 * Not real: the chain. The client reads the mint and a blockhash from an RPC stub; the facilitator's
 * simulate / send / confirm calls are recorded instead of reaching a validator, so balances and
 * confirmation are not verified.
 */
import { x402Client } from '@x402/core/client';
import { x402Facilitator } from '@x402/core/facilitator';
import type { FacilitatorClient } from '@x402/core/server';
import type { PaymentPayload, PaymentRequirements, SupportedResponse } from '@x402/core/types';
import { wrapFetchWithPayment } from '@x402/fetch';
import { toFacilitatorSvmSigner } from '@x402/svm';
import { ExactSvmScheme } from '@x402/svm/exact/client';
import { registerExactSvmScheme } from '@x402/svm/exact/facilitator';
import { generateKeyPairSigner, getBase64Encoder, getCompiledTransactionMessageDecoder, getTransactionDecoder, type KeyPairSigner } from '@solana/kit';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpFacilitator } from './support/http-facilitator.js';
import { startSolanaRpcStub } from './support/solana-rpc-stub.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { decodeBase64Json } from './support/x402-payer.js';
import { newSigningKeyPem } from './support/signing-key.js';

const SOLANA = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp';
const USDC_MINT = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const body = JSON.stringify({ filename: 'a.txt', size_bytes: 12, header_first_200_bytes_base64: Buffer.from('hello world\n').toString('base64') });

describe('Solana payments through the official SVM client and facilitator (chain stubbed)', () => {
  let rpc: Awaited<ReturnType<typeof startSolanaRpcStub>>;
  let facilitator: Awaited<ReturnType<typeof startHttpFacilitator>>;
  let t: TestApp;
  let payer: KeyPairSigner;
  let feePayer: KeyPairSigner;
  let payTo: KeyPairSigner;
  const sent: string[] = [];
  const simulated: string[] = [];
  let url: string;

  beforeAll(async () => {
    [payer, feePayer, payTo] = await Promise.all([generateKeyPairSigner(), generateKeyPairSigner(), generateKeyPairSigner()]);
    rpc = await startSolanaRpcStub();
    const signer = {
      ...toFacilitatorSvmSigner(feePayer, { defaultRpcUrl: rpc.url }),
      simulateTransaction: async (transaction: string) => void simulated.push(transaction),
      sendTransaction: async (transaction: string) => {
        sent.push(transaction);
        return `stub-signature-${sent.length}`;
      },
      confirmTransaction: async () => undefined,
    };
    const svm = registerExactSvmScheme(new x402Facilitator(), { signer, networks: SOLANA });
    const client: FacilitatorClient = {
      verify: (payload: PaymentPayload, requirements: PaymentRequirements) => svm.verify(payload, requirements),
      settle: (payload: PaymentPayload, requirements: PaymentRequirements) => svm.settle(payload, requirements),
      getSupported: async () => svm.getSupported() as SupportedResponse,
    };
    facilitator = await startHttpFacilitator(client);
    t = await startTestApp({ ROLE: 'api', FACILITATOR_URL: facilitator.url, X402_SVM_PAY_TO: payTo.address, RECEIPT_SIGNING_KEY: newSigningKeyPem() });
    url = `${t.baseUrl}/api/x402/v1/detect-file-type`;
  });
  afterAll(async () => {
    await t?.close();
    await facilitator?.close();
    await rpc?.close();
  });

  const payingFetch = () => {
    const client = new x402Client().register('solana:*', new ExactSvmScheme(payer, { rpcUrl: rpc.url }));
    return wrapFetchWithPayment(fetch, client);
  };
  const post = (fetcher: typeof fetch) => fetcher(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

  it('challenges with Solana USDC, the payTo and the facilitator fee payer', async () => {
    const challenge = (await (await post(fetch)).json()) as { accepts: PaymentRequirements[] };
    expect(challenge.accepts).toEqual([
      expect.objectContaining({ scheme: 'exact', network: SOLANA, asset: USDC_MINT, amount: '2000', payTo: payTo.address, extra: { feePayer: feePayer.address } }),
    ]);
  });

  it('the official client pays, the official facilitator verifies and co-signs, the service answers and records it', async () => {
    const response = await post(payingFetch());
    expect(response.status).toBe(200);
    expect(((await response.json()) as { detected: boolean }).detected).toBe(true);
    const settlement = decodeBase64Json<{ success: boolean; network: string; transaction: string; payer: string }>(response.headers.get('PAYMENT-RESPONSE'));
    expect(settlement).toMatchObject({ success: true, network: SOLANA, transaction: 'stub-signature-1', payer: payer.address });

    // The client read the mint and a blockhash; the facilitator simulated (in verify and again in settle) and sent one transaction.
    expect(rpc.calls.map((call) => call.method)).toEqual(expect.arrayContaining(['getAccountInfo', 'getLatestBlockhash']));
    expect(rpc.calls.find((call) => call.method === 'getAccountInfo')!.params[0]).toBe(USDC_MINT);
    expect(simulated).toHaveLength(2);
    expect(sent).toHaveLength(1);
    expect(facilitator.requests).toEqual(expect.arrayContaining(['POST /verify', 'POST /settle']));

    // The sent transaction carries both signatures: the payer's and the facilitator's as fee payer.
    const transaction = getTransactionDecoder().decode(getBase64Encoder().encode(sent[0]!));
    const signers = Object.entries(transaction.signatures);
    expect(signers.map(([address]) => address).sort()).toEqual([feePayer.address, payer.address].sort());
    expect(signers.every(([, signature]) => signature !== null)).toBe(true);
    const message = getCompiledTransactionMessageDecoder().decode(transaction.messageBytes);
    expect(message.staticAccounts[0]).toBe(feePayer.address);
    expect(message.staticAccounts).toContain(USDC_MINT);

    const [record] = await t.app.get(DataSource).query(`SELECT network, payer, amount_atomic, asset, pay_to, status, tx_hash FROM payment_records WHERE network = $1`, [SOLANA]);
    expect(record).toMatchObject({ network: SOLANA, payer: payer.address, amount_atomic: '2000', asset: USDC_MINT, pay_to: payTo.address, status: 'settled', tx_hash: 'stub-signature-1' });
  });

  it('refuses a payment for less than the price: 402, nothing simulated or sent', async () => {
    const before = { simulated: simulated.length, sent: sent.length };
    const cheap = new x402Client().register('solana:*', new ExactSvmScheme(payer, { rpcUrl: rpc.url }));
    // A payer that signs 1000 instead of the 2000 asked for.
    cheap.registerPolicy((_version, offers) => offers.map((offer) => ({ ...offer, amount: '1000' })));
    const response = await post(wrapFetchWithPayment(fetch, cheap));
    expect(response.status).toBe(402);
    expect(simulated.length).toBe(before.simulated);
    expect(sent.length).toBe(before.sent);
  });
});
