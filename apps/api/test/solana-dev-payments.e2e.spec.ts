/**
 * Solana payments in dev mode, for real: the service offers the local Solana (LiteSVM behind a JSON-RPC front,
 * @fileshift/devchain) beside the local EVM chain, the official SVM client builds and signs each payment against
 * that chain, the service's facilitator (the official SVM scheme, in its thread) co-signs and sends it, and the
 * chain executes it. Balances and signature statuses are read from the chain; nothing here is stubbed.
 */
import { DevChain, SolanaDevChain } from '@fileshift/devchain';
import { createKeyPairSignerFromBytes, type KeyPairSigner } from '@solana/kit';
import type { PaymentRequired } from '@x402/core/types';
import { privateKeyToAccount } from 'viem/accounts';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PaymentRecord } from '../src/payments/payment-record.entity.js';
import { createOtherMint } from './support/solana-other-mint.js';
import { paymentSignedFor, signatureStatus, solanaPayer, solanaPayingClient, solanaPayingFetch } from './support/solana-payer.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { convertFile, jobEnded } from './support/x402-jobs.js';
import { decodeBase64Json, encodeBase64Json, payingFetch } from './support/x402-payer.js';

const PNG_HEADER = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex').toString('base64');
const detectBody = JSON.stringify({ filename: 'picture.jpg', size_bytes: 4096, header_first_200_bytes_base64: PNG_HEADER });
// A 16×16 PNG.
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000010000000100802000000909168360000000970485973000003e8000003e801b57b526b' +
    '0000001949444154289163304e3b43126218d590361a4ac6c335690000320e651025121ae10000000049454e44ae426082',
  'hex',
);

interface Settlement {
  success: boolean;
  network: string;
  transaction: string;
  payer: string;
}

describe('Solana payments in dev mode on the local Solana (real chain, facilitator, queue and engines)', () => {
  let evm: DevChain;
  let solana: SolanaDevChain;
  let t: TestApp;
  let detectUrl: string;

  const post = (fetcher: typeof fetch, headers: Record<string, string> = {}) =>
    fetcher(detectUrl, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: detectBody });
  const challenge = async () => (await (await post(fetch)).json()) as PaymentRequired;
  const payTo = () => solana.usdcBalanceOf(solana.payTo);
  const balances = async (payer: KeyPairSigner) => ({ payTo: await payTo(), payer: await solana.usdcBalanceOf(payer.address) });
  const records = () => t.app.get(DataSource).getRepository(PaymentRecord);
  const settledBy = (payer: KeyPairSigner) => records().countBy({ network: solana.network, payer: payer.address, status: 'settled' });

  beforeAll(async () => {
    [evm, solana] = await Promise.all([DevChain.start(), SolanaDevChain.start()]);
    // ROLE all: this process also runs the worker that converts.
    t = await startTestApp({ DEVCHAIN_RPC_URL: evm.rpcUrl, DEVCHAIN_SOLANA_RPC_URL: solana.rpcUrl });
    detectUrl = `${t.baseUrl}/api/x402/v1/detect-file-type`;
  });
  afterAll(async () => {
    await t?.close();
    await Promise.all([evm?.stop(), solana?.stop()]);
  });

  it('offers both dev chains in every challenge: the EVM test USDC, then the Solana test mint with the facilitator as fee payer', async () => {
    const offers = (await challenge()).accepts;
    expect(offers).toEqual([
      expect.objectContaining({ scheme: 'exact', network: evm.network, amount: '2000', asset: evm.usdcAddress, payTo: evm.payTo }),
      expect.objectContaining({ scheme: 'exact', network: solana.network, amount: '2000', asset: solana.usdcMint, payTo: solana.payTo, extra: { feePayer: solana.feePayer } }),
    ]);
    const upload = await convertFile(t.baseUrl, fetch, PNG, 'sample.png', 'webp');
    expect(upload.status).toBe(402);
    expect(((await upload.json()) as PaymentRequired).accepts.map((offer) => [offer.network, offer.asset, offer.amount])).toEqual([
      [evm.network, evm.usdcAddress, String(t.config.prices.jobAtomic)],
      [solana.network, solana.usdcMint, String(t.config.prices.jobAtomic)],
    ]);
  });

  it('/.well-known/x402.json and the OpenAPI document name the Solana dev chain as they name the EVM one, with a funded payer\'s key', async () => {
    const discovery = (await (await fetch(`${t.baseUrl}/.well-known/x402.json`)).json()) as {
      accepts: Array<Record<string, unknown>>;
      devChain: Record<string, unknown>;
      solanaDevChain: { rpcUrl: string; network: string; usdc: string; decimals: number; payTo: string; payerAddress: string; payerSecretKey: number[] };
    };
    expect(discovery.devChain).toMatchObject({ rpcUrl: evm.rpcUrl, network: evm.network, usdc: evm.usdcAddress, payTo: evm.payTo });
    expect(discovery.solanaDevChain).toMatchObject({ rpcUrl: solana.rpcUrl, network: solana.network, usdc: solana.usdcMint, decimals: 6, payTo: solana.payTo });
    expect(discovery.accepts[1]).toEqual({ scheme: 'exact', network: solana.network, asset: solana.usdcMint, payTo: solana.payTo, currency: 'USDC', decimals: 6, maxTimeoutSeconds: 300 });
    // A fixed-price resource publishes its requirements in full: a Solana payer signs before its first request.
    const detect = (discovery as unknown as { resources: Array<{ operationId: string; accepts: unknown[] }> }).resources.find((resource) => resource.operationId === 'detectFileType');
    expect(detect?.accepts[1]).toEqual({ scheme: 'exact', network: solana.network, amount: '2000', asset: solana.usdcMint, payTo: solana.payTo, maxTimeoutSeconds: 300, extra: { feePayer: solana.feePayer } });
    // The published key (a JSON byte array, as solana-keygen writes it) is the published payer's, and it holds test USDC.
    const payer = await createKeyPairSignerFromBytes(Uint8Array.from(discovery.solanaDevChain.payerSecretKey));
    expect(payer.address).toBe(discovery.solanaDevChain.payerAddress);
    expect(await solana.usdcBalanceOf(payer.address)).toBeGreaterThan(0n);

    const openApi = (await (await fetch(`${t.baseUrl}/openapi.json`)).json()) as { paths: Record<string, Record<string, { 'x-payment-info': { protocols: unknown[] } }>> };
    expect(openApi.paths['/api/x402/v1/detect-file-type']!.post!['x-payment-info'].protocols).toContainEqual({
      x402: { scheme: 'exact', network: solana.network, asset: solana.usdcMint, payTo: solana.payTo, amount: '2000' },
    });
  });

  it('a paid detection moves payTo\'s test USDC by exactly the price; the ledger records the transaction, which the chain executed', async () => {
    const payer = await solanaPayer(solana, 0);
    const before = await balances(payer);
    const response = await post(solanaPayingFetch(solana, payer));
    expect(response.status).toBe(200);
    expect(((await response.json()) as { detected_format: { format: string } }).detected_format.format).toBe('png');
    const settlement = decodeBase64Json<Settlement>(response.headers.get('payment-response'));
    expect(settlement).toMatchObject({ success: true, network: solana.network, payer: payer.address });
    expect(await balances(payer)).toEqual({ payTo: before.payTo + 2000n, payer: before.payer - 2000n });

    const record = await records().findOneByOrFail({ txHash: settlement.transaction });
    expect(record).toMatchObject({ status: 'settled', endpoint: 'detectFileType', network: solana.network, asset: solana.usdcMint, payTo: solana.payTo, amountAtomic: '2000', payer: payer.address });
    expect(await signatureStatus(solana, settlement.transaction)).toMatchObject({ err: null, confirmationStatus: 'finalized' });
  });

  it('a paid conversion (png → webp, then its result bought) moves payTo by the job fee plus the result price', async () => {
    const payer = await solanaPayer(solana, 1);
    const pay = solanaPayingFetch(solana, payer);
    const before = await balances(payer);
    const job = await jobEnded(await convertFile(t.baseUrl, pay, PNG, 'sample.png', 'webp'));
    expect(job).toMatchObject({ status: 'done', target_format: 'webp' });
    const purchase = await pay(job.result_url!);
    expect(purchase.status).toBe(200);
    const bought = (await purchase.json()) as { download_url: string; mime_type: string; payment: { network: string; amount: { atomic_units: string; decimals: number }; tx_hash: string } };
    const paid = BigInt(t.config.prices.jobAtomic + t.config.prices.resultStandardAtomic);
    expect(await balances(payer)).toEqual({ payTo: before.payTo + paid, payer: before.payer - paid });
    expect(bought.payment).toMatchObject({ network: solana.network, amount: { atomic_units: String(t.config.prices.resultStandardAtomic), decimals: 6 } });
    expect(await signatureStatus(solana, bought.payment.tx_hash)).toMatchObject({ err: null, confirmationStatus: 'finalized' });
    expect(await records().findBy({ jobId: job.job_id, status: 'settled' })).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ endpoint: 'createConversionJob', network: solana.network, amountAtomic: String(t.config.prices.jobAtomic) }),
        expect.objectContaining({ endpoint: 'purchaseConversionResult', network: solana.network, amountAtomic: String(t.config.prices.resultStandardAtomic), txHash: bought.payment.tx_hash }),
      ]),
    );
    const file = Buffer.from(await (await fetch(bought.download_url)).arrayBuffer());
    expect(bought.mime_type).toBe('image/webp');
    expect(file.subarray(8, 12).toString('latin1')).toBe('WEBP');
  });

  it('refuses an underpayment (a transfer of 1000 presented as the 2000 offer): 402, nothing moves, nothing settled', async () => {
    const payer = await solanaPayer(solana, 2);
    const before = await balances(payer);
    const cheap = await paymentSignedFor(solana, payer, await challenge(), { amount: '1000' });
    const response = await post(fetch, { 'PAYMENT-SIGNATURE': encodeBase64Json(cheap) });
    expect(response.status).toBe(402);
    expect(((await response.json()) as PaymentRequired).error).toMatch(/amount_mismatch/);
    expect(await balances(payer)).toEqual(before);
    expect(await settledBy(payer)).toBe(0);
  });

  it('refuses a replayed transaction (the same PAYMENT-SIGNATURE sent again): 402, it moved once and is settled once', async () => {
    const payer = await solanaPayer(solana, 3);
    const payment = await solanaPayingClient(solana, payer).createPaymentPayload(await challenge());
    const header = { 'PAYMENT-SIGNATURE': encodeBase64Json(payment) };
    const first = await post(fetch, header);
    expect(first.status).toBe(200);
    const { transaction } = decodeBase64Json<Settlement>(first.headers.get('payment-response'));
    const before = await balances(payer);
    const replayed = await post(fetch, header);
    expect(replayed.status).toBe(402);
    expect(((await replayed.json()) as PaymentRequired).error).toMatch(/payment_already_used/);
    expect(await balances(payer)).toEqual(before);
    expect(await settledBy(payer)).toBe(1);
    expect(await records().countBy({ txHash: transaction })).toBe(1);
  });

  it('refuses a payment in another mint (a real token of the chain, presented as the test USDC offer): 402, nothing moves, nothing settled', async () => {
    const payer = await solanaPayer(solana, 4);
    const otherMint = await createOtherMint(solana, payer, 1_000_000n);
    const before = await balances(payer);
    const payment = await paymentSignedFor(solana, payer, await challenge(), { asset: otherMint });
    const response = await post(fetch, { 'PAYMENT-SIGNATURE': encodeBase64Json(payment) });
    expect(response.status).toBe(402);
    expect(((await response.json()) as PaymentRequired).error).toMatch(/mint_mismatch/);
    expect(await balances(payer)).toEqual(before);
    expect(await settledBy(payer)).toBe(0);
  });

  it('records nothing as settled that the chain did not execute: payTo holds exactly what the ledger says it was paid', async () => {
    const settled = await records().findBy({ network: solana.network, status: 'settled' });
    expect(settled.length).toBeGreaterThanOrEqual(4);
    for (const record of settled) {
      expect(await signatureStatus(solana, record.txHash!), record.txHash!).toMatchObject({ err: null, confirmationStatus: 'finalized' });
    }
    // payTo's token account starts empty, and only this service is paid into it.
    expect(await payTo()).toBe(settled.reduce((sum, record) => sum + BigInt(record.amountAtomic), 0n));
  });

  it('answers 503 with nothing charged when the Solana chain is stopped, while EVM payments still settle', async () => {
    const payer = await solanaPayer(solana, 5);
    const payment = await solanaPayingClient(solana, payer).createPaymentPayload(await challenge());
    await solana.stop();
    const response = await post(fetch, { 'PAYMENT-SIGNATURE': encodeBase64Json(payment) });
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('5');
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error).toMatchObject({ code: 'dependency_unavailable', message: expect.stringMatching(/nothing was charged/) });
    expect(await settledBy(payer)).toBe(0);

    // Each network's refusals are judged by a probe of its own chain: the EVM chain is up, and pays as before.
    const evmPayTo = await evm.usdcBalanceOf(evm.payTo);
    expect((await post(payingFetch(evm, privateKeyToAccount(evm.payerPrivateKeys[0]!)))).status).toBe(200);
    expect(await evm.usdcBalanceOf(evm.payTo)).toBe(evmPayTo + 2000n);
  });
});
