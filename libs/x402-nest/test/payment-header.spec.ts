import type { PaymentRequirements } from '@x402/core/types';
import { describe, expect, it } from 'vitest';
import { encodeHeader, readPaymentHeader, upgradeV1Payment } from '../src/payment-header.js';
import { paymentNonce } from '../src/payment-nonce.js';

const requirement: PaymentRequirements = {
  scheme: 'exact',
  network: 'eip155:8453',
  asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
  amount: '2000',
  payTo: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  maxTimeoutSeconds: 300,
  extra: { name: 'USD Coin', version: '2' },
};
const authorization = { from: '0xabc', to: requirement.payTo, value: '2000', validAfter: '0', validBefore: '99', nonce: '0xABCDEF' };

describe('readPaymentHeader', () => {
  it('reports no payment when neither header is present or the header is blank', () => {
    expect(readPaymentHeader({})).toEqual({ kind: 'none' });
    expect(readPaymentHeader({ 'payment-signature': '  ' })).toEqual({ kind: 'none' });
  });

  it('reads a v2 payload from PAYMENT-SIGNATURE and from the legacy X-PAYMENT header', () => {
    const v2 = { x402Version: 2, accepted: requirement, payload: { signature: '0x1', authorization } };
    for (const name of ['payment-signature', 'x-payment']) {
      expect(readPaymentHeader({ [name]: encodeHeader(v2) })).toEqual({ kind: 'v2', payload: v2 });
    }
  });

  it('reads a v1 payload from X-PAYMENT and maps v1 network names to CAIP-2', () => {
    const v1 = { x402Version: 1, scheme: 'exact', network: 'base', payload: { signature: '0x1', authorization } };
    const read = readPaymentHeader({ 'x-payment': encodeHeader(v1) });
    expect(read).toEqual({ kind: 'v1', scheme: 'exact', network: 'eip155:8453', payload: v1.payload });
    expect(upgradeV1Payment(read as Extract<typeof read, { kind: 'v1' }>, [requirement])).toEqual({
      x402Version: 2,
      accepted: requirement,
      payload: v1.payload,
    });
    const elsewhere = { ...(read as Extract<typeof read, { kind: 'v1' }>), network: 'eip155:84532' };
    expect(upgradeV1Payment(elsewhere, [requirement])).toBeUndefined();
  });

  it('explains what is wrong with a malformed header', () => {
    const cases: Array<[string, RegExp]> = [
      ['%%%not-base64%%%', /not base64-encoded JSON/],
      [Buffer.from('{"x402Version":2').toString('base64'), /not base64-encoded JSON/],
      [encodeHeader([1, 2]), /not a JSON object/],
      [encodeHeader({ x402Version: 2, accepted: requirement }), /no payload object/],
      [encodeHeader({ x402Version: 2, payload: {} }), /no "accepted" requirements/],
      [encodeHeader({ x402Version: 1, payload: {} }), /needs "scheme" and "network"/],
      [encodeHeader({ x402Version: 7, payload: {} }), /unsupported x402Version 7/],
    ];
    for (const [value, reason] of cases) {
      const read = readPaymentHeader({ 'payment-signature': value });
      expect(read.kind).toBe('malformed');
      expect((read as { reason: string }).reason).toMatch(reason);
      expect((read as { reason: string }).reason).toMatch(/^invalid_payment_header: /);
    }
  });
});

describe('paymentNonce', () => {
  it('uses the EIP-3009 nonce, case-insensitively', () => {
    expect(paymentNonce({ x402Version: 2, accepted: requirement, payload: { authorization } })).toBe('0xabcdef');
  });

  it('digests payloads without a nonce, independent of key order', () => {
    const a = paymentNonce({ x402Version: 2, accepted: requirement, payload: { transaction: 'AQID', extra: 1 } });
    const b = paymentNonce({ x402Version: 2, accepted: requirement, payload: { extra: 1, transaction: 'AQID' } });
    expect(a).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(a).toBe(b);
    expect(paymentNonce({ x402Version: 2, accepted: requirement, payload: { transaction: 'AQIE' } })).not.toBe(a);
  });
});
