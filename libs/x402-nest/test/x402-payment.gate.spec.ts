import { generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { x402ResourceServer } from '@x402/core/server';
import type { PaymentPayload, PaymentRequired, PaymentRequirements } from '@x402/core/types';
import { ExactEvmScheme } from '@x402/evm/exact/server';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { createOfferJWS, createReceiptJWS, type JWSSigner, type OfferReceiptIssuer, verifyOfferSignatureJWS, verifyReceiptSignatureJWS } from '@x402/extensions/offer-receipt';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { encodeHeader, X402PaymentGate, X402PaymentIdentifierConflictException, X402PaymentRequiredException, X402UnavailableException } from '../src/index.js';
import { FakeFacilitator } from './support/fake-facilitator.js';
import { MemoryLedger } from './support/memory-ledger.js';

const NETWORK = 'eip155:8453';
const ASSET = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
const PAY_TO = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const PAYER = '0x90F79bf6EB2c4f870365E785982E1f101E93b906';
const ROUTE = { name: 'detectFileType', description: 'Detect a file type.' };

/** The parts of a Fastify request and reply the gate reads and writes. */
function exchange(headers: Record<string, string> = {}) {
  const request = { headers, url: '/api/x402/v1/detect-file-type', method: 'POST', protocol: 'http', host: 'localhost', query: {}, body: {} } as unknown as FastifyRequest;
  const sent: Record<string, string> = {};
  const reply = { header: (name: string, value: string) => (sent[name.toLowerCase()] = value) } as unknown as FastifyReply;
  return { request, reply, sent };
}

function evmPayment(accepted: PaymentRequirements, nonce = `0x${randomBytes(32).toString('hex')}`): PaymentPayload {
  const now = Math.floor(Date.now() / 1000);
  return {
    x402Version: 2,
    accepted,
    payload: {
      signature: `0x${'ab'.repeat(65)}`,
      authorization: { from: PAYER, to: accepted.payTo, value: accepted.amount, validAfter: String(now - 60), validBefore: String(now + 300), nonce },
    },
  };
}

describe('X402PaymentGate (a fake facilitator, an in-memory ledger)', () => {
  let facilitator: FakeFacilitator;
  let ledger: MemoryLedger;
  let gate: X402PaymentGate;
  const errors: string[] = [];
  const settlements: string[] = [];

  beforeEach(() => {
    facilitator = new FakeFacilitator(NETWORK);
    ledger = new MemoryLedger();
    errors.length = 0;
    settlements.length = 0;
    gate = new X402PaymentGate({
      resourceServer: new x402ResourceServer(facilitator).register(NETWORK, new ExactEvmScheme()),
      accepts: [{ scheme: 'exact', network: NETWORK, asset: ASSET, payTo: PAY_TO, extra: { name: 'USD Coin', version: '2' } }],
      ledger,
      onError: (message) => errors.push(message),
      onSettlement: (route, outcome) => settlements.push(`${route}:${outcome}`),
    });
  });

  async function challengeOf(price: number): Promise<PaymentRequired> {
    const { request, reply } = exchange();
    const refusal = await gate.paymentFor(request, reply, ROUTE).collect(price).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(X402PaymentRequiredException);
    return (refusal as X402PaymentRequiredException).challenge;
  }

  const collectWith = (payload: unknown, price = 2000, reference?: string) => {
    const { request, reply, sent } = exchange({ 'payment-signature': encodeHeader(payload) });
    return { sent, collecting: gate.paymentFor(request, reply, ROUTE).collect(price, reference) };
  };

  it('without a payment: 402 with the challenge in the header and the body, the facilitator never asked', async () => {
    const { request, reply } = exchange();
    const refusal = (await gate.paymentFor(request, reply, ROUTE).collect(2000).catch((error: unknown) => error)) as X402PaymentRequiredException;
    expect(refusal).toBeInstanceOf(X402PaymentRequiredException);
    expect(refusal.getStatus()).toBe(402);
    expect(refusal.challenge.accepts).toEqual([expect.objectContaining({ scheme: 'exact', network: NETWORK, amount: '2000', asset: ASSET, payTo: PAY_TO })]);
    expect(JSON.parse(Buffer.from(refusal.headers['PAYMENT-REQUIRED']!, 'base64').toString())).toEqual(refusal.challenge);
    expect(facilitator.verified).toHaveLength(0);
    expect(ledger.all()).toEqual([]);
  });

  it('declares the extensions a route asks for in its challenge, asking once per route, on a route with a path parameter too', async () => {
    const asked: string[] = [];
    gate = new X402PaymentGate({
      resourceServer: new x402ResourceServer(facilitator).register(NETWORK, new ExactEvmScheme()),
      accepts: [{ scheme: 'exact', network: NETWORK, asset: ASSET, payTo: PAY_TO }],
      ledger,
      extensionsOf: (route) => (asked.push(route.name), route.name === ROUTE.name ? { catalogue: { info: { listed: true } } } : undefined),
    });
    expect((await challengeOf(2000)).extensions?.catalogue).toEqual({ info: { listed: true } });
    expect((await challengeOf(3000)).extensions?.catalogue).toEqual({ info: { listed: true } });
    const { request, reply } = exchange();
    Object.assign(request, { method: 'GET', url: '/jobs/job_1/result?x=1', routeOptions: { url: '/jobs/:job_id/result' } });
    const refusal = (await gate.paymentFor(request, reply, { name: 'purchase', description: 'Buy.' }).collect(2000).catch((error: unknown) => error)) as X402PaymentRequiredException;
    expect(refusal).toBeInstanceOf(X402PaymentRequiredException);
    expect(Object.keys(refusal.challenge.extensions ?? {})).toEqual(['payment-identifier']);
    expect(asked).toEqual([ROUTE.name, 'purchase']);
  });

  it('answers unpaid requests from a challenge built once per price and resource URL', async () => {
    const first = await challengeOf(2000);
    expect(await challengeOf(2000)).toBe(first);
    const dearer = await challengeOf(3000);
    expect(dearer.accepts[0]!.amount).toBe('3000');
    const { request, reply } = exchange();
    (request as unknown as { host: string }).host = 'elsewhere.example';
    const refusal = (await gate.paymentFor(request, reply, ROUTE).collect(2000).catch((error: unknown) => error)) as X402PaymentRequiredException;
    expect(refusal.challenge.resource.url).toBe('http://elsewhere.example/api/x402/v1/detect-file-type');
    expect(first.resource.url).toBe('http://localhost/api/x402/v1/detect-file-type');
  });

  it('publishes the challenge an unpaid request gets, built before any request; a payment signed from it is collected and settled', async () => {
    const published = await gate.publishedChallenge(ROUTE, 'POST', '/api/x402/v1/detect-file-type', 'http://localhost', 2000);
    expect(published.accepts).toEqual([{ scheme: 'exact', network: NETWORK, amount: '2000', asset: ASSET, payTo: PAY_TO, maxTimeoutSeconds: 300, extra: { name: 'USD Coin', version: '2' } }]);
    // The same challenge, from the same cache, as the request's 402.
    expect(await challengeOf(2000)).toBe(published);
    const { sent, collecting } = collectWith(evmPayment(published.accepts[0]!));
    await (await collecting).settle();
    expect(facilitator.settled).toHaveLength(1);
    expect(sent['payment-response']).toBeDefined();
  });

  it('an undecodable header: 402 naming what is wrong, the facilitator never asked', async () => {
    const { request, reply } = exchange({ 'payment-signature': 'not base64 json!' });
    const refusal = (await gate.paymentFor(request, reply, ROUTE).collect(2000).catch((error: unknown) => error)) as X402PaymentRequiredException;
    expect(refusal.challenge.error).toMatch(/^invalid_payment_header: /);
    expect(facilitator.verified).toHaveLength(0);
  });

  it('a header whose accepted block is right but whose payload is not: 402 naming the field, the facilitator never asked', async () => {
    const [accepted] = (await challengeOf(2000)).accepts;
    for (const payload of [{}, { signature: '0x12', authorization: { ...evmPayment(accepted!).payload.authorization as object, value: '-1' } }]) {
      const refusal = (await collectWith({ x402Version: 2, accepted, payload }).collecting.catch((error: unknown) => error)) as X402PaymentRequiredException;
      expect(refusal).toBeInstanceOf(X402PaymentRequiredException);
      expect(refusal.challenge.error).toMatch(/^invalid_payment_header: PAYMENT-SIGNATURE payload\./);
    }
    const { network: _network, ...withoutNetwork } = accepted!;
    const missing = (await collectWith({ x402Version: 2, accepted: withoutNetwork, payload: evmPayment(accepted!).payload }).collecting.catch((error: unknown) => error)) as X402PaymentRequiredException;
    expect(missing.challenge.error).toMatch(/^invalid_payment_header: .*accepted\.network/);
    expect(facilitator.verified).toHaveLength(0);
    expect(ledger.all()).toEqual([]);
  });

  it('collects, records with its reference, settles once, records the settlement and sets PAYMENT-RESPONSE', async () => {
    const [accepted] = (await challengeOf(2000)).accepts;
    const { sent, collecting } = collectWith(evmPayment(accepted!), 2000, 'job_abc');
    const paid = await collecting;
    expect(paid).toMatchObject({ network: NETWORK, amountAtomic: '2000', payer: PAYER });
    expect(ledger.all()).toEqual([expect.objectContaining({ endpoint: ROUTE.name, reference: 'job_abc', status: 'verified', amountAtomic: '2000', payTo: PAY_TO })]);
    expect(facilitator.settled).toHaveLength(0);

    const receipt = await paid.settle();
    expect(facilitator.settled).toHaveLength(1);
    expect(receipt).toMatchObject({ network: NETWORK, amountAtomic: '2000', payTo: PAY_TO, payer: PAYER, txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
    expect(ledger.all()[0]).toMatchObject({ status: 'settled', txHash: receipt.txHash });
    expect(sent['payment-response']).toBeTruthy();
    await expect(paid.settle()).rejects.toThrow(/already settled or released/);
    expect(facilitator.settled).toHaveLength(1);
    expect(settlements).toEqual([`${ROUTE.name}:settled`]);
  });

  it('says in Server-Timing how long the facilitator took to verify and to settle, not counting the ledger\'s writes', async () => {
    const [accepted] = (await challengeOf(2000)).accepts;
    const later = <T>(ms: number, value: () => Promise<T>) => new Promise<T>((resolve, reject) => setTimeout(() => value().then(resolve, reject), ms));
    const [verify, settle, recordSettled] = [facilitator.verify.bind(facilitator), facilitator.settle.bind(facilitator), ledger.recordSettled.bind(ledger)];
    vi.spyOn(facilitator, 'verify').mockImplementation((...args) => later(40, () => verify(...args)));
    vi.spyOn(facilitator, 'settle').mockImplementation((...args) => later(60, () => settle(...args)));
    vi.spyOn(ledger, 'recordSettled').mockImplementation((...args) => later(400, () => recordSettled(...args)));
    const { sent, collecting } = collectWith(evmPayment(accepted!));
    await (await collecting).settle();
    const timing = /^x402-verify;dur=(\d+\.\d{2}), x402-settle;dur=(\d+\.\d{2})$/.exec(sent['server-timing'] ?? '');
    expect(timing, sent['server-timing']).not.toBeNull();
    expect(Number(timing![1])).toBeGreaterThanOrEqual(35);
    expect(Number(timing![2])).toBeGreaterThanOrEqual(55);
    expect(Number(timing![2])).toBeLessThan(400);
  });

  it('verifies a payment against the kept challenge, asking the facilitator before the ledger write, with no challenge rebuilt', async () => {
    const challenge = await challengeOf(2000);
    const verifiedWhenRecorded: number[] = [];
    const recordVerified = ledger.recordVerified.bind(ledger);
    vi.spyOn(ledger, 'recordVerified').mockImplementation((record) => {
      verifiedWhenRecorded.push(facilitator.verified.length);
      return recordVerified(record);
    });
    const rebuild = vi.spyOn(x402ResourceServer.prototype, 'buildPaymentRequirementsFromOptions');
    const { collecting } = collectWith(evmPayment(challenge.accepts[0]!));
    await (await collecting).settle();
    expect(verifiedWhenRecorded).toEqual([1]);
    expect(rebuild).not.toHaveBeenCalled();
    expect(ledger.all()[0]).toMatchObject({ status: 'settled' });
    rebuild.mockRestore();
  });

  describe('payment-identifier: a request repeated with the identifier of its settled payment', () => {
    const ID = 'pay_0123456789abcdef0123';
    const identified = (payload: PaymentPayload, id = ID): PaymentPayload => ({ ...payload, extensions: { 'payment-identifier': { info: { required: false, id } } } });
    const collectFor = (payload: PaymentPayload, body: unknown = { filename: 'a.png' }) => {
      const { request, reply, sent } = exchange({ 'payment-signature': encodeHeader(payload) });
      Object.assign(request, { body });
      const payment = gate.paymentFor(request, reply, ROUTE);
      return { sent, payment, collecting: payment.collect(2000) };
    };

    it('is declared in every challenge, required of none', async () => {
      expect((await challengeOf(2000)).extensions?.['payment-identifier']).toMatchObject({ info: { required: false } });
    });

    it('answers the first payment\'s receipt and settles nothing again, for a new signed payment or the same one resent', async () => {
      const [accepted] = (await challengeOf(2000)).accepts;
      const firstPayload = identified(evmPayment(accepted!));
      const first = collectFor(firstPayload);
      expect(first.payment.identifier).toBe(`${PAYER.toLowerCase()}/${ID}`);
      const receipt = await (await first.collecting).settle();
      // A new signed payment, and the first one resent as it was (its nonce used: a repeat, not a replay).
      for (const again of [identified(evmPayment(accepted!)), firstPayload]) {
        const repeat = collectFor(again);
        const paid = await repeat.collecting;
        expect(paid.repeated).toBe(true);
        expect(await paid.settle()).toEqual(receipt);
        expect(JSON.parse(Buffer.from(repeat.sent['payment-response']!, 'base64').toString())).toMatchObject({ success: true, transaction: receipt.txHash, amount: '2000' });
      }
      expect(facilitator.settled).toHaveLength(1);
      expect(ledger.all().filter((record) => record.status === 'settled')).toHaveLength(1);
    });

    it('409 for another request with the identifier (another body, another route), or while the first is being settled; nothing charged', async () => {
      const [accepted] = (await challengeOf(2000)).accepts;
      const first = await collectFor(identified(evmPayment(accepted!))).collecting;
      const inFlight = await collectFor(identified(evmPayment(accepted!))).collecting.catch((error: unknown) => error);
      expect(inFlight).toBeInstanceOf(X402PaymentIdentifierConflictException);
      expect((inFlight as X402PaymentIdentifierConflictException).reason).toBe('in_progress');
      await first.settle();
      const other = await collectFor(identified(evmPayment(accepted!)), { filename: 'b.png' }).collecting.catch((error: unknown) => error);
      expect(other).toMatchObject({ reason: 'reused' });
      expect((other as X402PaymentIdentifierConflictException).getStatus()).toBe(409);
      const { request, reply } = exchange({ 'payment-signature': encodeHeader(identified(evmPayment(accepted!))) });
      Object.assign(request, { body: { filename: 'a.png' } });
      await expect(gate.paymentFor(request, reply, { name: 'otherRoute', description: 'Other.' }).collect(2000)).rejects.toMatchObject({ reason: 'reused' });
      expect(facilitator.settled).toHaveLength(1);
    });

    it('is free again once its payment failed, and is scoped by payer: another payer\'s identical identifier is its own', async () => {
      const [accepted] = (await challengeOf(2000)).accepts;
      await (await collectFor(identified(evmPayment(accepted!))).collecting).release('work failed');
      const retried = await collectFor(identified(evmPayment(accepted!))).collecting;
      expect(retried.repeated).toBe(false);
      await retried.settle();
      const otherPayer = evmPayment(accepted!);
      (otherPayer.payload.authorization as { from: string }).from = PAY_TO;
      const theirs = await collectFor(identified(otherPayer)).collecting;
      expect(theirs.repeated).toBe(false);
      await theirs.settle();
      expect(facilitator.settled).toHaveLength(2);
    });

    it('402 for an identifier that breaks the extension\'s rules, naming it; a payment echoing the declaration without an id is plain', async () => {
      const [accepted] = (await challengeOf(2000)).accepts;
      const refusal = await collectFor(identified(evmPayment(accepted!), 'short')).collecting.catch((error: unknown) => error);
      expect((refusal as X402PaymentRequiredException).challenge.error).toMatch(/^invalid_payment_identifier: /);
      const plain = collectFor({ ...evmPayment(accepted!), extensions: { 'payment-identifier': { info: { required: false } } } });
      expect(plain.payment.identifier).toBeUndefined();
      expect((await plain.collecting).repeated).toBe(false);
    });
  });

  it('a payment refused by the facilitator: 402 with its reason, nothing recorded', async () => {
    const [accepted] = (await challengeOf(2000)).accepts;
    facilitator.verifyWith = 'refuse';
    const refusal = (await collectWith(evmPayment(accepted!)).collecting.catch((error: unknown) => error)) as X402PaymentRequiredException;
    expect(refusal).toBeInstanceOf(X402PaymentRequiredException);
    expect(refusal.challenge.error).toBe('invalid_exact_evm_payload_signature');
    expect(ledger.all()).toEqual([]);
  });

  it('a payment for another amount than the price: 402, never verified', async () => {
    const [accepted] = (await challengeOf(2000)).accepts;
    const refusal = (await collectWith(evmPayment({ ...accepted!, amount: '1' })).collecting.catch((error: unknown) => error)) as X402PaymentRequiredException;
    expect(refusal.challenge.error).toBe('No matching payment requirements');
    expect(facilitator.verified).toHaveLength(0);
  });

  it('an unreachable facilitator: 503, nothing recorded or charged', async () => {
    const [accepted] = (await challengeOf(2000)).accepts;
    facilitator.verifyWith = 'unreachable';
    await expect(collectWith(evmPayment(accepted!)).collecting).rejects.toBeInstanceOf(X402UnavailableException);
    expect(ledger.all()).toEqual([]);
  });

  it('the same signed payment twice: the second is refused as already used and not recorded again', async () => {
    const [accepted] = (await challengeOf(2000)).accepts;
    const payment = evmPayment(accepted!);
    await (await collectWith(payment).collecting).settle();
    const replay = (await collectWith(payment).collecting.catch((error: unknown) => error)) as X402PaymentRequiredException;
    expect(replay.challenge.error).toMatch(/^payment_already_used/);
    expect(ledger.all()).toHaveLength(1);
    expect(facilitator.settled).toHaveLength(1);
  });

  it('a payment refused, or met by an unreachable facilitator, may be presented again: its reservation was given back', async () => {
    const [accepted] = (await challengeOf(2000)).accepts;
    const payment = evmPayment(accepted!);
    for (const outcome of ['refuse', 'unreachable'] as const) {
      facilitator.verifyWith = outcome;
      await expect(collectWith(payment).collecting).rejects.toThrow();
      expect(ledger.all()).toEqual([]);
    }
    facilitator.verifyWith = 'accept';
    await (await collectWith(payment).collecting).settle();
    expect(ledger.all()).toEqual([expect.objectContaining({ status: 'settled' })]);
  });

  it('the same signed payment twice at once: one is collected and settled, the other refused as already used', async () => {
    const [accepted] = (await challengeOf(2000)).accepts;
    const payment = evmPayment(accepted!);
    const outcomes = await Promise.allSettled([collectWith(payment).collecting, collectWith(payment).collecting]);
    const collected = outcomes.filter((outcome) => outcome.status === 'fulfilled');
    const refused = outcomes.filter((outcome) => outcome.status === 'rejected');
    expect(collected).toHaveLength(1);
    expect((refused[0]!.reason as X402PaymentRequiredException).challenge.error).toMatch(/^payment_already_used/);
    await collected[0]!.value.settle();
    expect(facilitator.settled).toHaveLength(1);
    expect(ledger.all()).toEqual([expect.objectContaining({ status: 'settled' })]);
  });

  it('a settlement that fails: 402 with the reason and the record marked failed', async () => {
    const [accepted] = (await challengeOf(2000)).accepts;
    const paid = await collectWith(evmPayment(accepted!)).collecting;
    facilitator.settleWith = 'refuse';
    const refusal = (await paid.settle().catch((error: unknown) => error)) as X402PaymentRequiredException;
    expect(refusal.challenge.error).toBe('settlement_failed: insufficient_funds');
    expect(JSON.stringify(refusal.challenge) + JSON.stringify(refusal.headers)).not.toContain('10.0.0.7');
    expect(ledger.all()[0]).toMatchObject({ status: 'failed', failureReason: 'insufficient_funds' });
    expect(settlements).toEqual([`${ROUTE.name}:refused`]);
  });

  it('a facilitator that cannot settle: 503 and the record marked failed', async () => {
    const [accepted] = (await challengeOf(2000)).accepts;
    const paid = await collectWith(evmPayment(accepted!)).collecting;
    facilitator.settleWith = 'unreachable';
    await expect(paid.settle()).rejects.toBeInstanceOf(X402UnavailableException);
    expect(ledger.all()[0]).toMatchObject({ status: 'failed', failureReason: 'settlement_unavailable' });
    expect(settlements).toEqual([`${ROUTE.name}:unavailable`]);
  });

  it('released after failed work: never settled, the record says why', async () => {
    const [accepted] = (await challengeOf(2000)).accepts;
    const paid = await collectWith(evmPayment(accepted!)).collecting;
    await paid.release('request_failed');
    expect(ledger.all()[0]).toMatchObject({ status: 'failed', failureReason: 'request_failed' });
    await expect(paid.settle()).rejects.toThrow(/already settled or released/);
    expect(facilitator.settled).toHaveLength(0);
  });

  it('records a settlement through a short database outage: the money moved', async () => {
    const [accepted] = (await challengeOf(2000)).accepts;
    const paid = await collectWith(evmPayment(accepted!)).collecting;
    ledger.failNextSettledRecords = 2;
    const receipt = await paid.settle();
    expect(ledger.all()[0]).toMatchObject({ status: 'settled', txHash: receipt.txHash });
    expect(errors.filter((message) => message.includes('retrying'))).toHaveLength(2);
  });

  it('lifts a legacy v1 X-PAYMENT payload to the requirement offered for its network', async () => {
    const [accepted] = (await challengeOf(2000)).accepts;
    const v1 = { x402Version: 1, scheme: 'exact', network: 'base', payload: evmPayment(accepted!).payload };
    const { request, reply } = exchange({ 'x-payment': encodeHeader(v1) });
    const paid = await gate.paymentFor(request, reply, ROUTE).collect(2000);
    expect(paid.network).toBe(NETWORK);
    expect(facilitator.verified[0]).toMatchObject({ x402Version: 2, accepted: { network: NETWORK, amount: '2000' } });
  });

  it('refuses a price that is not positive', async () => {
    const { request, reply } = exchange();
    await expect(gate.paymentFor(request, reply, ROUTE).collect(0)).rejects.toBeInstanceOf(RangeError);
  });

  describe('offer-receipt: with an issuer, signed offers in every challenge and a signed receipt in every settlement', () => {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const publicJwk = publicKey.export({ format: 'jwk' }) as { kty: string; crv: string; x: string };
    const signer: JWSSigner = { kid: 'did:web:localhost#receipts', format: 'jws', algorithm: 'EdDSA', sign: async (input) => sign(null, input, privateKey).toString('base64url') };
    const issuer: OfferReceiptIssuer = {
      kid: signer.kid,
      format: 'jws',
      issueOffer: (resourceUrl, input) => createOfferJWS(resourceUrl, input, signer),
      issueReceipt: (resourceUrl, payer, network, transaction) => createReceiptJWS({ resourceUrl, payer, network, transaction }, signer),
    };
    const receiptOf = (sent: Record<string, string>) => JSON.parse(Buffer.from(sent['payment-response']!, 'base64').toString()).extensions['offer-receipt'].info.receipt;

    beforeEach(() => {
      gate = new X402PaymentGate({
        resourceServer: new x402ResourceServer(facilitator).register(NETWORK, new ExactEvmScheme()),
        accepts: [{ scheme: 'exact', network: NETWORK, asset: ASSET, payTo: PAY_TO, extra: { name: 'USD Coin', version: '2' } }],
        ledger,
        offerReceipts: issuer,
      });
    });
    afterEach(() => vi.restoreAllMocks());

    it('offers each accepted payment, signed, valid for five minutes', async () => {
      const challenge = await challengeOf(2000);
      const [offer] = (challenge.extensions?.['offer-receipt'] as { info: { offers: Array<{ format: 'jws'; signature: string }> } }).info.offers;
      const payload = await verifyOfferSignatureJWS(offer!, publicJwk);
      expect(payload).toMatchObject({ resourceUrl: 'http://localhost/api/x402/v1/detect-file-type', scheme: 'exact', network: NETWORK, asset: ASSET, payTo: PAY_TO, amount: '2000' });
      expect(payload.validUntil - Date.now() / 1000).toBeGreaterThan(290);
      // Another amount under the same signature.
      const [header, , signature] = offer!.signature.split('.');
      const dearer = Buffer.from(JSON.stringify({ ...payload, amount: '1' })).toString('base64url');
      await expect(verifyOfferSignatureJWS({ ...offer!, signature: `${header}.${dearer}.${signature}` }, publicJwk)).rejects.toThrow();
    });

    it('rebuilds a kept challenge after half a minute with offers signed afresh, so an offer is at most a minute old', async () => {
      const first = await challengeOf(2000);
      expect(await challengeOf(2000)).toBe(first);
      const now = Date.now();
      vi.spyOn(Date, 'now').mockReturnValue(now + 31_000);
      const rebuilt = await challengeOf(2000);
      expect(rebuilt).not.toBe(first);
      const offerOf = (challenge: PaymentRequired) => (challenge.extensions?.['offer-receipt'] as { info: { offers: Array<{ signature: string }> } }).info.offers[0]!.signature;
      expect(offerOf(rebuilt)).not.toBe(offerOf(first));
    });

    it('signs offers once per challenge, not per paid request; a receipt per settlement; a changed challenge is signed anew', async () => {
      const issueOffer = vi.spyOn(issuer, 'issueOffer');
      const issueReceipt = vi.spyOn(issuer, 'issueReceipt');
      const challenge = await challengeOf(2000);
      for (let i = 0; i < 3; i++) {
        const { sent, collecting } = collectWith(evmPayment(challenge.accepts[0]!));
        await (await collecting).settle();
        expect(await verifyReceiptSignatureJWS(receiptOf(sent), publicJwk)).toMatchObject({ payer: PAYER });
      }
      expect(issueOffer).toHaveBeenCalledTimes(1);
      expect(issueReceipt).toHaveBeenCalledTimes(3);
      // A refused payment's challenge carries the same signed offer.
      facilitator.verifyWith = 'refuse';
      const refusal = (await collectWith(evmPayment(challenge.accepts[0]!)).collecting.catch((error: unknown) => error)) as X402PaymentRequiredException;
      expect(refusal.challenge.extensions?.['offer-receipt']).toEqual(challenge.extensions?.['offer-receipt']);
      const dearer = await challengeOf(3000);
      expect(issueOffer).toHaveBeenCalledTimes(2);
      const [offer] = (dearer.extensions?.['offer-receipt'] as { info: { offers: Array<{ format: 'jws'; signature: string }> } }).info.offers;
      expect(await verifyOfferSignatureJWS(offer!, publicJwk)).toMatchObject({ amount: '3000' });
    });

    it('writes the settled record while the receipt is signed, not after', async () => {
      const statusWhenSigned: string[] = [];
      vi.spyOn(issuer, 'issueReceipt').mockImplementation(async (resourceUrl, payer, network, transaction) => {
        await new Promise((resolve) => setImmediate(resolve));
        statusWhenSigned.push(ledger.all()[0]!.status);
        return createReceiptJWS({ resourceUrl, payer, network, transaction }, signer);
      });
      const { sent, collecting } = collectWith(evmPayment((await challengeOf(2000)).accepts[0]!));
      const settled = await (await collecting).settle();
      expect(statusWhenSigned).toEqual(['settled']);
      expect(await verifyReceiptSignatureJWS(receiptOf(sent), publicJwk)).toMatchObject({ transaction: settled.txHash });
    });

    it('sends the settled record\'s write before the receipt is signed, to a database client that sends on its next tick', async () => {
      const order: string[] = [];
      const recordSettled = ledger.recordSettled.bind(ledger);
      vi.spyOn(ledger, 'recordSettled').mockImplementation(async (id, settlement) => {
        // As pg's pool: the query leaves once every promise continuation has run.
        await new Promise((resolve) => process.nextTick(resolve));
        order.push('record sent');
        return recordSettled(id, settlement);
      });
      vi.spyOn(issuer, 'issueReceipt').mockImplementation((resourceUrl, payer, network, transaction) => {
        order.push('receipt signed');
        return createReceiptJWS({ resourceUrl, payer, network, transaction }, signer);
      });
      const { collecting } = collectWith(evmPayment((await challengeOf(2000)).accepts[0]!));
      await (await collecting).settle();
      expect(order).toEqual(['record sent', 'receipt signed']);
    });

    it('a settlement carries a receipt naming the payer, the network and the transaction; so does a repeat of it', async () => {
      const [accepted] = (await challengeOf(2000)).accepts;
      const payload = { ...evmPayment(accepted!), extensions: { 'payment-identifier': { info: { required: false, id: 'pay_0123456789abcdef0123' } } } };
      const first = collectWith(payload);
      const settled = await (await first.collecting).settle();
      const receipt = await verifyReceiptSignatureJWS(receiptOf(first.sent), publicJwk);
      expect(receipt).toMatchObject({ resourceUrl: 'http://localhost/api/x402/v1/detect-file-type', payer: PAYER, network: NETWORK, transaction: settled.txHash });
      const repeat = collectWith({ ...payload, payload: evmPayment(accepted!).payload });
      expect(await (await repeat.collecting).settle()).toEqual(settled);
      expect(await verifyReceiptSignatureJWS(receiptOf(repeat.sent), publicJwk)).toMatchObject({ payer: PAYER, transaction: settled.txHash });
      expect(facilitator.settled).toHaveLength(1);
    });
  });
});
