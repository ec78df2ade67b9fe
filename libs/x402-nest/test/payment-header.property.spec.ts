import fc from 'fast-check';
import { getAddress, isHex } from 'viem';
import { describe, expect, it } from 'vitest';
import { encodeHeader, readPaymentHeader } from '../src/payment-header.js';

const HEADERS = ['payment-signature', 'x-payment'] as const;
const SOURCE = { 'payment-signature': 'PAYMENT-SIGNATURE', 'x-payment': 'X-PAYMENT' } as const;

/** Whatever comes back must be one of the four answers; a refusal names the header and stays short. */
function expectWellFormedAnswer(header: (typeof HEADERS)[number], value: string): ReturnType<typeof readPaymentHeader> {
  const read = readPaymentHeader({ [header]: value });
  expect(['none', 'malformed', 'v1', 'v2']).toContain(read.kind);
  if (read.kind === 'malformed') {
    expect(read.reason.startsWith(`invalid_payment_header: ${SOURCE[header]} `)).toBe(true);
    expect(read.reason.length).toBeLessThan(200);
  }
  return read;
}

const urlSafe = (base64: string) => base64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const hex = (bytes: Uint8Array) => `0x${Buffer.from(bytes).toString('hex')}`;
const hexDigits = fc.string({ unit: fc.constantFrom(...'0123456789abcdefABCDEF') });

// Mostly valid fields, now and then one wrong or missing (undefined is dropped by JSON): most
// candidates then differ from a valid payment in one field, so each rule is hit on its own, and
// acceptances are common enough for their every field to be checked.
const mostly = <T>(valid: fc.Arbitrary<T>, ...wrong: Array<fc.Arbitrary<unknown>>) =>
  fc.oneof(
    { arbitrary: valid as fc.Arbitrary<unknown>, weight: 30 * (wrong.length + 1) },
    ...[...wrong, fc.constant(undefined)].map((arbitrary) => ({ arbitrary, weight: 1 })),
  );
const anything = fc.oneof(fc.string(), fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.array(fc.integer(), { maxLength: 3 }), fc.object({ maxDepth: 1 }));

const nearMissBytes = (length: number) => fc.constantFrom(length - 1, length + 1).chain((size) => fc.uint8Array({ minLength: size, maxLength: size }).map(hex));
const address = mostly(fc.uint8Array({ minLength: 20, maxLength: 20 }).map(hex), nearMissBytes(20), hexDigits, anything);
const uint256 = mostly(
  fc.bigInt({ min: 0n, max: 2n ** 256n - 1n }).map(String),
  fc.bigInt({ min: 2n ** 256n, max: 2n ** 300n }).map(String),
  fc.bigInt({ min: -(2n ** 64n), max: -1n }).map(String),
  fc.constantFrom('1e3', '0x10', '+1', '1.5', ' 1', '', '9'.repeat(79)),
  anything,
);
const nonce = mostly(fc.uint8Array({ minLength: 32, maxLength: 32 }).map(hex), nearMissBytes(32), fc.string(), anything);
const signature = mostly(
  fc.uint8Array({ minLength: 1, maxLength: 600 }).map(hex),
  hexDigits.map((digits) => `0x${digits}`),
  fc.string(),
  anything,
);
const transaction = mostly(
  fc.uint8Array({ minLength: 1, maxLength: 1232 }).map((bytes) => Buffer.from(bytes).toString('base64')),
  fc.base64String(),
  fc.uint8Array({ minLength: 1, maxLength: 64 }).map((bytes) => urlSafe(Buffer.from(bytes).toString('base64'))),
  fc.string(),
  anything,
);
const wrongNetwork = fc.oneof(fc.constantFrom('base', 'eip155:', ':8453', 'EIP155:8453', 'eip155:8453:extra', ''), fc.string(), anything);
const eip3009Payload = fc.record({
  signature,
  authorization: mostly(fc.record({ from: address, to: address, value: uint256, validAfter: uint256, validBefore: uint256, nonce }), anything),
});
const permit2Payload = fc.record({
  signature,
  permit2Authorization: mostly(
    fc.record({
      from: address,
      permitted: mostly(fc.record({ token: address, amount: uint256 }), anything),
      spender: address,
      nonce: uint256,
      deadline: uint256,
      witness: mostly(fc.record({ to: address, validAfter: uint256 }), anything),
    }),
    anything,
  ),
});
// Network and payload of one family, as a client would send them.
const family = fc.oneof(
  fc.record({ network: mostly(fc.constantFrom('eip155:8453', 'eip155:84532', 'eip155:31337'), wrongNetwork), payload: mostly(fc.oneof(eip3009Payload, permit2Payload), anything) }),
  fc.record({ network: mostly(fc.constantFrom('solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp', 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1'), wrongNetwork), payload: mostly(fc.record({ transaction }), anything) }),
  fc.record({ network: mostly(fc.constant('cosmos:cosmoshub-4'), wrongNetwork), payload: mostly(fc.object({ maxDepth: 2 }), anything) }),
);
const scheme = mostly(fc.constant('exact'), fc.constant('upto'), fc.constant(''), fc.string({ minLength: 33 }), anything);
const v2Candidate = family.chain(({ network, payload }) =>
  fc.record({
    x402Version: mostly(fc.constant(2), fc.constantFrom(1, 3, '2')),
    accepted: mostly(
      fc.record({
        scheme,
        network: fc.constant(network),
        amount: uint256,
        asset: mostly(fc.string({ minLength: 1, maxLength: 128 }), fc.constant(''), fc.string({ minLength: 129, maxLength: 200 }), anything),
        payTo: mostly(fc.string({ minLength: 1, maxLength: 128 }), fc.constant(''), anything),
        maxTimeoutSeconds: mostly(fc.integer({ min: 1, max: 86_400 }), fc.integer({ max: 0 }), fc.double(), fc.constant('300')),
        extra: mostly(fc.object({ maxDepth: 2 }), anything),
      }),
      anything,
    ),
    payload: fc.constant(payload),
    resource: mostly(fc.record({ url: fc.webUrl() }), fc.string(), anything),
    extensions: mostly(fc.object({ maxDepth: 3 }), anything),
  }),
);

/** Checks the fields the way their consumers do (viem, BigInt, the Solana base64 codec), not with our schema. */
function expectFacilitatorReadable(payment: Record<string, any>): void {
  const { accepted, payload } = payment;
  expect(payment.x402Version).toBe(2);
  expect(accepted.network).toMatch(/^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$/);
  expect(typeof accepted.scheme === 'string' && accepted.scheme.length > 0).toBe(true);
  expectUint256(accepted.amount);
  for (const name of ['asset', 'payTo']) expect(typeof accepted[name] === 'string' && accepted[name].length > 0 && accepted[name].length <= 128).toBe(true);
  expect(Number.isSafeInteger(accepted.maxTimeoutSeconds) && accepted.maxTimeoutSeconds > 0).toBe(true);
  if (accepted.extra !== undefined) expect(isPlainObject(accepted.extra)).toBe(true);
  if (payment.resource !== undefined) expect(typeof payment.resource.url).toBe('string');
  if (payment.extensions !== undefined) expect(isPlainObject(payment.extensions)).toBe(true);
  expect(isPlainObject(payload)).toBe(true);
  if (accepted.scheme !== 'exact') return;
  if (accepted.network.startsWith('eip155:')) {
    expect(isHex(payload.signature, { strict: true }) && payload.signature.length % 2 === 0 && payload.signature.length > 2).toBe(true);
    if ('permit2Authorization' in payload) {
      const permit = payload.permit2Authorization;
      for (const value of [permit.from, permit.spender, permit.permitted.token, permit.witness.to]) getAddress(value);
      for (const value of [permit.permitted.amount, permit.nonce, permit.deadline, permit.witness.validAfter]) expectUint256(value);
    } else {
      const { from, to, value, validAfter, validBefore, nonce: authorizationNonce } = payload.authorization;
      getAddress(from);
      getAddress(to);
      for (const amount of [value, validAfter, validBefore]) expectUint256(amount);
      expect(authorizationNonce).toMatch(/^0x[0-9a-fA-F]{64}$/);
    }
  }
  if (accepted.network.startsWith('solana:')) {
    expect(typeof payload.transaction === 'string' && payload.transaction.length % 4 === 0 && payload.transaction.length <= 4096).toBe(true);
    expect(Buffer.from(payload.transaction, 'base64').toString('base64').length).toBe(payload.transaction.length);
  }
}

function expectUint256(value: unknown): void {
  expect(typeof value === 'string' && /^[0-9]+$/.test(value)).toBe(true);
  expect(BigInt(value as string) < 2n ** 256n).toBe(true);
}

function isPlainObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

describe('readPaymentHeader (properties)', () => {
  it('never throws on arbitrary header values', () => {
    const value = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.base64String(), fc.string({ unit: fc.constantFrom(...'AZaz09+/-_= ') }));
    fc.assert(
      fc.property(fc.constantFrom(...HEADERS), value, (header, raw) => {
        expectWellFormedAnswer(header, raw);
      }),
      { numRuns: 1000 },
    );
  });

  it('never throws on arbitrary JSON, base64-encoded (standard or url-safe)', () => {
    const json = fc.oneof(fc.jsonValue(), fc.object(), fc.record({ x402Version: fc.constantFrom(1, 2), payload: fc.jsonValue(), accepted: fc.jsonValue(), scheme: fc.jsonValue(), network: fc.jsonValue() }));
    fc.assert(
      fc.property(fc.constantFrom(...HEADERS), json, fc.boolean(), (header, value, safe) => {
        const encoded = encodeHeader(value);
        expectWellFormedAnswer(header, safe ? urlSafe(encoded) : encoded);
      }),
      { numRuns: 1000 },
    );
  });

  it('accepts as v2 only payments whose every field the facilitator reads is in the validated form', () => {
    let accepted = 0;
    let refused = 0;
    fc.assert(
      fc.property(fc.constantFrom(...HEADERS), v2Candidate, (header, candidate) => {
        const read = expectWellFormedAnswer(header, encodeHeader(candidate));
        if (read.kind === 'v2') {
          accepted++;
          expect(read.payload).toEqual(JSON.parse(JSON.stringify(candidate)));
          expectFacilitatorReadable(read.payload);
        } else {
          refused++;
          expect(read.kind).toBe('malformed');
        }
      }),
      { numRuns: 2000 },
    );
    // The generator must exercise both answers, or the property says little.
    expect(accepted).toBeGreaterThan(500);
    expect(refused).toBeGreaterThan(500);
  });
});
