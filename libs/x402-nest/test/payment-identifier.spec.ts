import type { PaymentPayload } from '@x402/core/types';
import { declarePaymentIdentifierExtension } from '@x402/extensions/payment-identifier';
import { describe, expect, it } from 'vitest';
import { carriedIdentifier } from '../src/payment-identifier.js';

const PAYER = '0x90F79bf6EB2c4f870365E785982E1f101E93b906';
const ID = 'pay_0123456789abcdef0123';

function paying(extension: unknown): PaymentPayload {
  return {
    x402Version: 2,
    accepted: { scheme: 'exact', network: 'eip155:8453', asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', amount: '2000', payTo: PAYER, maxTimeoutSeconds: 300, extra: {} },
    payload: { signature: '0x12', authorization: { from: PAYER } },
    ...(extension === undefined ? {} : { extensions: { 'payment-identifier': extension } }),
  } as PaymentPayload;
}

describe('carriedIdentifier', () => {
  it('reads the id of the declaration a client echoes (schema and all), scoped by its payer', () => {
    const echoed = declarePaymentIdentifierExtension(false);
    expect(carriedIdentifier(paying({ ...echoed, info: { ...echoed.info, id: ID } }))).toEqual({ kind: 'valid', scoped: `${PAYER.toLowerCase()}/${ID}` });
  });

  it('no extension, or the declaration echoed without an id: no identifier', () => {
    expect(carriedIdentifier(paying(undefined))).toEqual({ kind: 'none' });
    expect(carriedIdentifier(paying(declarePaymentIdentifierExtension(false)))).toEqual({ kind: 'none' });
  });

  it('refuses an id outside our rules, and a declaration that is not one', () => {
    for (const id of ['short', 'x'.repeat(129), 'pay_with spaces_0123456789', 42]) {
      expect(carriedIdentifier(paying({ info: { required: false, id } }))).toMatchObject({ kind: 'invalid' });
    }
    expect(carriedIdentifier(paying({ info: { id: ID } }))).toMatchObject({ kind: 'invalid', reason: expect.stringMatching(/required/) });
    expect(carriedIdentifier(paying('pay_0123456789abcdef0123'))).toMatchObject({ kind: 'invalid' });
  });

  it('checks by our rules, never by the schema the client sent', () => {
    // A schema refusing everything does not refuse a good id; one allowing anything does not admit a bad one.
    expect(carriedIdentifier(paying({ info: { required: false, id: ID }, schema: { not: {} } }))).toMatchObject({ kind: 'valid' });
    expect(carriedIdentifier(paying({ info: { required: false, id: 'bad id' }, schema: {} }))).toMatchObject({ kind: 'invalid' });
    // A schema that would not even compile is not looked at.
    expect(carriedIdentifier(paying({ info: { required: false, id: ID }, schema: { type: 'no-such-type', pattern: '(' } }))).toMatchObject({ kind: 'valid' });
  });
});
