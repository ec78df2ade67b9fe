/**
 * Signed offers, receipts and delivery records (x402 `offer-receipt`), verified as any client would: with `jose`
 * against the service's /.well-known/did.json, on the real dev chain, real queue and real engine.
 */
import { createHash } from 'node:crypto';
import { DevChain } from '@fileshift/devchain';
import type { PaymentRequired } from '@x402/core/types';
import sharp from 'sharp';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { didWebVerifier } from './support/did-web-verifier.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { decodeBase64Json, payingFetch } from './support/x402-payer.js';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

interface SettlementWithReceipt {
  transaction: string;
  extensions: { 'offer-receipt': { info: { receipt: { format: 'jws'; signature: string } } } };
}

describe('signed offers, receipts and delivery records (dev chain, verified with jose against did.json)', () => {
  let chain: DevChain;
  let t: TestApp;
  let pay: typeof fetch;
  let verifier: Awaited<ReturnType<typeof didWebVerifier>>;
  const payer = () => privateKeyToAccount(chain.payerPrivateKeys[1]!);
  const detectBody = JSON.stringify({ filename: 'a.txt', size_bytes: 12, header_first_200_bytes_base64: Buffer.from('hello world\n').toString('base64') });
  const detect = (fetcher: typeof fetch) => fetcher(`${t.baseUrl}/api/x402/v1/detect-file-type`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: detectBody });

  beforeAll(async () => {
    chain = await DevChain.start();
    t = await startTestApp({ DEVCHAIN_RPC_URL: chain.rpcUrl });
    pay = payingFetch(chain, payer());
    verifier = await didWebVerifier(t.baseUrl);
  });
  afterAll(async () => {
    await t?.close();
    await chain?.stop();
  });

  it('publishes one Ed25519 key under the did:web of the host it answers at', () => {
    const port = new URL(t.baseUrl).port;
    expect(verifier.document.id).toBe(`did:web:127.0.0.1%3A${port}`);
    expect(verifier.document.verificationMethod).toEqual([
      { id: expect.stringMatching(new RegExp(`^did:web:127\\.0\\.0\\.1%3A${port}#[\\w-]{43}$`)), type: 'JsonWebKey2020', controller: verifier.document.id, publicKeyJwk: { kty: 'OKP', crv: 'Ed25519', x: expect.any(String) } },
    ]);
  });

  it('every challenge offers each accepted payment, signed: the offer states what the challenge asks', async () => {
    const challenge = decodeBase64Json<PaymentRequired>((await detect(fetch)).headers.get('payment-required'));
    const { offers } = (challenge.extensions?.['offer-receipt'] as { info: { offers: Array<{ format: string; acceptIndex: number; signature: string }> } }).info;
    expect(offers).toHaveLength(challenge.accepts.length);
    for (const offer of offers) {
      const accepted = challenge.accepts[offer.acceptIndex]!;
      const payload = await verifier.verify<Record<string, unknown>>(offer.signature);
      expect(payload).toMatchObject({ version: 1, resourceUrl: challenge.resource.url, scheme: accepted.scheme, network: accepted.network, asset: accepted.asset, payTo: accepted.payTo, amount: accepted.amount });
      expect(payload.validUntil).toBeGreaterThan(Date.now() / 1000 + 200);
    }
  });

  it('a paid detection carries a receipt naming the payer, the network and the settlement\'s transaction', async () => {
    const response = await detect(pay);
    expect(response.status).toBe(200);
    const settlement = decodeBase64Json<SettlementWithReceipt>(response.headers.get('payment-response'));
    const receipt = await verifier.verify<Record<string, unknown>>(settlement.extensions['offer-receipt'].info.receipt.signature);
    expect(receipt).toMatchObject({ version: 1, network: chain.network, payer: payer().address, transaction: settlement.transaction, resourceUrl: `${t.baseUrl}/api/x402/v1/detect-file-type` });
    expect(await chain.publicClient.getTransactionReceipt({ hash: settlement.transaction as `0x${string}` })).toMatchObject({ status: 'success' });
    // A receipt altered after signing no longer verifies.
    const [header, , signature] = settlement.extensions['offer-receipt'].info.receipt.signature.split('.');
    const forged = Buffer.from(JSON.stringify({ ...receipt, payer: chain.payTo })).toString('base64url');
    await expect(verifier.verify(`${header}.${forged}.${signature}`)).rejects.toThrow();
  });

  it('a sold result carries a delivery record binding input, output, engines and payment; the free second download carries the same', async () => {
    const png = await sharp({ create: { width: 48, height: 32, channels: 3, background: '#2255aa' } }).png().toBuffer();
    const form = new FormData();
    for (const [name, value] of Object.entries({ target_format: 'webp', filename: 'photo.png', created_at: '2026-11-01T10:00:00Z', size_bytes: String(png.length) })) form.append(name, value);
    form.append('file', new Blob([png]), 'photo.png');
    const starting = await pay(`${t.baseUrl}/api/x402/v1/convert-file`, { method: 'POST', body: form });
    const started = (await starting.json()) as { status_url: string; job_id: string };
    expect(starting.status, JSON.stringify(started)).toBe(202);
    let status: { status: string; result_url?: string } = { status: 'queued' };
    for (let i = 0; i < 200 && status.status !== 'done' && status.status !== 'failed'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      status = (await (await fetch(started.status_url)).json()) as typeof status;
    }
    expect(status.status).toBe('done');

    const bought = await pay(status.result_url!);
    expect(bought.status).toBe(200);
    const sold = (await bought.json()) as { download_url: string; delivery_record: string; payment: { tx_hash: string } };
    const settlement = decodeBase64Json<SettlementWithReceipt>(bought.headers.get('payment-response'));
    expect(await verifier.verify(settlement.extensions['offer-receipt'].info.receipt.signature)).toMatchObject({ transaction: sold.payment.tx_hash });

    const record = await verifier.verify<{
      type: string;
      jobId: string;
      resourceUrl: string;
      input: { format: string; sha256: string; sizeBytes: number };
      output: { format: string; filename: string; sha256: string; sizeBytes: number };
      plan: Array<{ engine: string; version: string | null; from: string; to: string }>;
      payment: { network: string; amount: string; payer: string; transaction: string; payTo: string };
    }>(sold.delivery_record);
    const downloaded = Buffer.from(await (await fetch(sold.download_url)).arrayBuffer());
    expect(record).toMatchObject({
      type: 'fileshift.delivery-record',
      jobId: started.job_id,
      resourceUrl: status.result_url,
      input: { format: 'png', sha256: sha256(png), sizeBytes: png.length },
      output: { format: 'webp', filename: 'photo.webp', sha256: sha256(downloaded), sizeBytes: downloaded.length },
      payment: { network: chain.network, amount: '20000', payer: payer().address, transaction: sold.payment.tx_hash, payTo: chain.payTo },
    });
    expect(record.plan).toEqual([{ engine: 'sharp', version: expect.stringMatching(/\d+\.\d+/), from: 'png', to: 'webp' }]);

    const again = (await (await pay(status.result_url!)).json()) as { delivery_record: string };
    expect(again.delivery_record).toBe(sold.delivery_record);
  });
});
