import { generateKeyPairSync, sign } from 'node:crypto';
import { createOfferJWS, createReceiptJWS, type JWSSigner, type OfferInput, type OfferReceiptIssuer, verifyOfferSignatureJWS } from '@x402/extensions/offer-receipt';
import { describe, expect, it } from 'vitest';
import { SignedOfferCache } from '../src/signed-offer-cache.js';

const URL = 'http://localhost/api/x402/v1/detect-file-type';
const INPUT: OfferInput = {
  acceptIndex: 0,
  scheme: 'exact',
  network: 'eip155:8453',
  asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
  payTo: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  amount: '2000',
  offerValiditySeconds: 300,
};

/** A real Ed25519 issuer counting what it signs. */
function countingIssuer() {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const signer: JWSSigner = { kid: 'did:web:localhost#k', format: 'jws', algorithm: 'EdDSA', sign: async (input) => sign(null, input, privateKey).toString('base64url') };
  const signed = { offers: 0, receipts: 0 };
  const issuer: OfferReceiptIssuer = {
    kid: signer.kid,
    format: 'jws',
    issueOffer: (url, input) => (signed.offers++, createOfferJWS(url, input, signer)),
    issueReceipt: (url, payer, network, transaction) => (signed.receipts++, createReceiptJWS({ resourceUrl: url, payer, network, transaction }, signer)),
  };
  return { issuer, signed, publicJwk: publicKey.export({ format: 'jwk' }) as { kty: string; crv: string; x: string } };
}

describe('SignedOfferCache', () => {
  it('signs an offer once and hands the same signature out again, which verifies', async () => {
    const { issuer, signed, publicJwk } = countingIssuer();
    const cache = new SignedOfferCache(issuer, 30_000);
    const [first, second] = await Promise.all([cache.issueOffer(URL, INPUT), cache.issueOffer(URL, { ...INPUT })]);
    expect(await cache.issueOffer(URL, INPUT)).toBe(first);
    expect(second).toBe(first);
    expect(signed.offers).toBe(1);
    expect(await verifyOfferSignatureJWS(first as Parameters<typeof verifyOfferSignatureJWS>[0], publicJwk)).toMatchObject({ resourceUrl: URL, amount: '2000', payTo: INPUT.payTo });
  });

  it('signs afresh whatever an offer says differently: amount, payee, asset, network, index, validity, resource URL', async () => {
    const { issuer, signed, publicJwk } = countingIssuer();
    const cache = new SignedOfferCache(issuer, 30_000);
    const first = await cache.issueOffer(URL, INPUT);
    const changed: Array<[string, OfferInput]> = [
      [URL, { ...INPUT, amount: '3000' }],
      [URL, { ...INPUT, payTo: '0x90F79bf6EB2c4f870365E785982E1f101E93b906' }],
      [URL, { ...INPUT, asset: '0x036CbD53842c5426634e7929541eC2318f3dCF7e' }],
      [URL, { ...INPUT, network: 'eip155:84532' }],
      [URL, { ...INPUT, acceptIndex: 1 }],
      [URL, { ...INPUT, offerValiditySeconds: 60 }],
      ['http://elsewhere.example/api/x402/v1/detect-file-type', INPUT],
    ];
    for (const [url, input] of changed) {
      const offer = await cache.issueOffer(url, input);
      expect(offer).not.toBe(first);
      const payload = await verifyOfferSignatureJWS(offer as Parameters<typeof verifyOfferSignatureJWS>[0], publicJwk);
      expect(payload).toMatchObject({ resourceUrl: url, amount: input.amount, payTo: input.payTo, network: input.network, asset: input.asset });
    }
    expect(signed.offers).toBe(1 + changed.length);
  });

  it('signs again once a signature is maxAgeMs old, so an offer handed out keeps most of its validity', async () => {
    const { issuer, signed } = countingIssuer();
    let now = 1_000_000;
    const cache = new SignedOfferCache(issuer, 30_000, 256, () => now);
    const first = await cache.issueOffer(URL, INPUT);
    now += 29_999;
    expect(await cache.issueOffer(URL, INPUT)).toBe(first);
    now += 1;
    expect(await cache.issueOffer(URL, INPUT)).not.toBe(first);
    expect(signed.offers).toBe(2);
  });

  it('keeps at most its capacity, dropping the oldest', async () => {
    const { issuer, signed } = countingIssuer();
    const cache = new SignedOfferCache(issuer, 30_000, 2);
    for (const amount of ['1', '2', '3', '2', '1']) await cache.issueOffer(URL, { ...INPUT, amount });
    // 1, 2, 3 signed; 3 pushed 1 out; 2 still kept; 1 signed again.
    expect(signed.offers).toBe(4);
  });

  it('never keeps a failed signature', async () => {
    const { issuer } = countingIssuer();
    let fail = true;
    const flaky: OfferReceiptIssuer = { ...issuer, issueOffer: (url, input) => (fail ? Promise.reject(new Error('key unavailable')) : issuer.issueOffer(url, input)) };
    const cache = new SignedOfferCache(flaky, 30_000);
    await expect(cache.issueOffer(URL, INPUT)).rejects.toThrow('key unavailable');
    fail = false;
    await expect(cache.issueOffer(URL, INPUT)).resolves.toMatchObject({ format: 'jws' });
  });

  it('signs every receipt afresh, and names the issuer it wraps', async () => {
    const { issuer, signed } = countingIssuer();
    const cache = new SignedOfferCache(issuer, 30_000);
    const payer = '0x90F79bf6EB2c4f870365E785982E1f101E93b906';
    await cache.issueReceipt(URL, payer, 'eip155:8453', '0x01');
    await cache.issueReceipt(URL, payer, 'eip155:8453', '0x01');
    expect(signed.receipts).toBe(2);
    expect([cache.kid, cache.format]).toEqual([issuer.kid, issuer.format]);
  });
});
