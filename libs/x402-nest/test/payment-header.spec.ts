import { x402Client } from '@x402/core/client';
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import { toClientEvmSigner } from '@x402/evm';
import { registerExactEvmScheme } from '@x402/evm/exact/client';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { encodeHeader, MAX_PAYMENT_HEADER_CHARS, readPaymentHeader, upgradeV1Payment } from '../src/payment-header.js';
import { paymentNonce, payerOf } from '../src/payment-nonce.js';

const requirement: PaymentRequirements = {
  scheme: 'exact',
  network: 'eip155:8453',
  asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
  amount: '2000',
  payTo: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  maxTimeoutSeconds: 300,
  extra: { name: 'USD Coin', version: '2' },
};
const solanaRequirement: PaymentRequirements = {
  scheme: 'exact',
  network: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
  asset: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
  amount: '2000',
  payTo: '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin',
  maxTimeoutSeconds: 300,
  extra: { feePayer: 'EwWqGE4ZFKLofuestmU4LDdK7XM1N4ALgdZccwYugwGd' },
};
const authorization = {
  from: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
  to: requirement.payTo,
  value: '2000',
  validAfter: '1700000000',
  validBefore: '1700000600',
  nonce: `0x${'ab'.repeat(32)}`,
};
const signature = `0x${'1b'.repeat(65)}`;
const v2 = { x402Version: 2, resource: { url: 'https://fileshift.example/api/x402/v1/detect-file-type' }, accepted: requirement, payload: { signature, authorization } };
const solanaTransaction = Buffer.from(Uint8Array.from({ length: 300 }, (_, i) => i % 256)).toString('base64');

const malformed = (value: unknown, header = 'payment-signature') => {
  const read = readPaymentHeader({ [header]: typeof value === 'string' ? value : encodeHeader(value) });
  expect(read.kind).toBe('malformed');
  return (read as { reason: string }).reason;
};
const withAuthorization = (fields: Record<string, unknown>) => ({ ...v2, payload: { signature, authorization: { ...authorization, ...fields } } });
const withAccepted = (fields: Record<string, unknown>) => ({ ...v2, accepted: { ...requirement, ...fields } });
const without = <T extends object>(value: T, key: keyof T) => Object.fromEntries(Object.entries(value).filter(([name]) => name !== key));

describe('readPaymentHeader', () => {
  it('reports no payment when neither header is present or the header is blank', () => {
    expect(readPaymentHeader({})).toEqual({ kind: 'none' });
    expect(readPaymentHeader({ 'payment-signature': '  ' })).toEqual({ kind: 'none' });
    expect(readPaymentHeader({ 'x-payment': '' })).toEqual({ kind: 'none' });
  });

  it('reads a v2 payload from PAYMENT-SIGNATURE and from the legacy X-PAYMENT header', () => {
    for (const name of ['payment-signature', 'x-payment']) {
      expect(readPaymentHeader({ [name]: encodeHeader(v2) })).toEqual({ kind: 'v2', payload: v2 });
    }
  });

  it('prefers PAYMENT-SIGNATURE when both headers are sent, and names the header it read in a reason', () => {
    expect(readPaymentHeader({ 'payment-signature': encodeHeader(v2), 'x-payment': '%%%' })).toEqual({ kind: 'v2', payload: v2 });
    expect(malformed({ ...v2, payload: {} })).toMatch(/^invalid_payment_header: PAYMENT-SIGNATURE /);
    expect(malformed({ ...v2, payload: {} }, 'x-payment')).toMatch(/^invalid_payment_header: X-PAYMENT /);
    expect(readPaymentHeader({ 'payment-signature': '%%%', 'x-payment': encodeHeader(v2) })).toMatchObject({ kind: 'malformed', reason: expect.stringMatching(/PAYMENT-SIGNATURE/) });
  });

  it('accepts standard and url-safe base64, and forwards unknown keys untouched', () => {
    const extended = { ...v2, future: { a: 1 }, accepted: { ...requirement, hint: 'x' }, payload: { signature, authorization: { ...authorization, memo: 'm' } } };
    const urlSafe = encodeHeader(extended).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    expect(readPaymentHeader({ 'payment-signature': urlSafe })).toEqual({ kind: 'v2', payload: extended });
  });

  it('accepts what the official EVM client signs', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const client = registerExactEvmScheme(new x402Client(), { signer: toClientEvmSigner(account) });
    client.setSpendControls({ allowedAssets: [{ network: requirement.network, asset: requirement.asset }] });
    const payment = await client.createPaymentPayload({ x402Version: 2, resource: { url: 'https://fileshift.example/x' }, accepts: [requirement] });
    expect(readPaymentHeader({ 'payment-signature': encodeHeader(payment) })).toEqual({ kind: 'v2', payload: payment });
  });

  it('reads a v1 payload from X-PAYMENT and maps v1 network names to CAIP-2', () => {
    const v1 = { x402Version: 1, scheme: 'exact', network: 'base', payload: { signature, authorization } };
    const read = readPaymentHeader({ 'x-payment': encodeHeader(v1) });
    expect(read).toEqual({ kind: 'v1', scheme: 'exact', network: 'eip155:8453', payload: v1.payload });
    expect(upgradeV1Payment(read as Extract<typeof read, { kind: 'v1' }>, [requirement])).toEqual({
      x402Version: 2,
      accepted: requirement,
      payload: v1.payload,
    });
    const elsewhere = { ...(read as Extract<typeof read, { kind: 'v1' }>), network: 'eip155:84532' };
    expect(upgradeV1Payment(elsewhere, [requirement])).toBeUndefined();
    expect(readPaymentHeader({ 'x-payment': encodeHeader({ ...v1, network: 'eip155:31337' }) })).toMatchObject({ kind: 'v1', network: 'eip155:31337' });
  });

  it('checks a v1 payload after mapping its network, with the same scheme rules', () => {
    const v1 = { x402Version: 1, scheme: 'exact', network: 'base', payload: { signature, authorization } };
    expect(malformed({ ...v1, network: 'base-mainnet' }, 'x-payment')).toBe(
      'invalid_payment_header: X-PAYMENT network must be a v1 network name such as base or solana, or a CAIP-2 network id',
    );
    expect(malformed(without(v1, 'network'), 'x-payment')).toBe('invalid_payment_header: X-PAYMENT network is missing');
    expect(malformed({ ...v1, scheme: '' }, 'x-payment')).toMatch(/X-PAYMENT scheme must be a non-empty string/);
    expect(malformed({ ...v1, payload: {} }, 'x-payment')).toBe('invalid_payment_header: X-PAYMENT payload.signature is missing');
    expect(malformed({ ...v1, payload: { signature, authorization: { ...authorization, value: '-5' } } }, 'x-payment')).toBe(
      'invalid_payment_header: X-PAYMENT payload.authorization.value must be a decimal integer below 2^256',
    );
    expect(malformed({ ...v1, network: 'solana', payload: { transaction: '***' } }, 'x-payment')).toMatch(/X-PAYMENT payload.transaction must be a standard base64 string/);
    expect(readPaymentHeader({ 'x-payment': encodeHeader({ ...v1, network: 'solana', payload: { transaction: solanaTransaction } }) })).toMatchObject({
      kind: 'v1',
      network: solanaRequirement.network,
    });
  });

  it('refuses an empty or partial EVM payload instead of handing it to the facilitator', () => {
    expect(malformed({ ...v2, payload: {} })).toBe('invalid_payment_header: PAYMENT-SIGNATURE payload.signature is missing');
    expect(malformed({ ...v2, payload: { signature } })).toBe('invalid_payment_header: PAYMENT-SIGNATURE payload.authorization is missing');
    expect(malformed({ ...v2, payload: { signature, authorization: 'yes' } })).toBe('invalid_payment_header: PAYMENT-SIGNATURE payload.authorization must be an object');
    expect(malformed({ ...v2, payload: [] })).toBe('invalid_payment_header: PAYMENT-SIGNATURE payload must be an object');
    expect(malformed(without(v2, 'payload'))).toBe('invalid_payment_header: PAYMENT-SIGNATURE payload is missing');
  });

  it('checks every authorization field the EVM facilitator reads', () => {
    const address = 'must be an address: 0x and 40 hex digits';
    const uint256 = 'must be a decimal integer below 2^256';
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ from: '0xabc' }, `from ${address}`],
      [{ from: authorization.from.slice(2) }, `from ${address}`],
      [{ to: 42 }, `to ${address}`],
      [{ to: `0x${'g'.repeat(40)}` }, `to ${address}`],
      [{ value: '-1' }, `value ${uint256}`],
      [{ value: '+1' }, `value ${uint256}`],
      [{ value: '1e3' }, `value ${uint256}`],
      [{ value: '0x10' }, `value ${uint256}`],
      [{ value: '1.5' }, `value ${uint256}`],
      [{ value: ' 1' }, `value ${uint256}`],
      [{ value: '' }, `value ${uint256}`],
      [{ value: 2000 }, `value ${uint256}`],
      [{ value: (2n ** 256n).toString() }, `value ${uint256}`],
      [{ value: '9'.repeat(79) }, `value ${uint256}`],
      [{ validAfter: 0 }, `validAfter ${uint256}`],
      [{ validAfter: null }, `validAfter ${uint256}`],
      [{ validBefore: undefined }, 'validBefore is missing'],
      [{ validBefore: '1'.repeat(1000) }, `validBefore ${uint256}`],
      [{ nonce: '0xABCDEF' }, 'nonce must be 0x and 64 hex digits'],
      [{ nonce: `0x${'a'.repeat(63)}` }, 'nonce must be 0x and 64 hex digits'],
      [{ nonce: `0x${'z'.repeat(64)}` }, 'nonce must be 0x and 64 hex digits'],
    ];
    for (const [fields, problem] of cases) {
      const value = withAuthorization(fields);
      if ('validBefore' in fields && fields.validBefore === undefined) delete (value.payload.authorization as Record<string, unknown>).validBefore;
      expect(malformed(value), JSON.stringify(fields)).toBe(`invalid_payment_header: PAYMENT-SIGNATURE payload.authorization.${problem}`);
    }
    expect(readPaymentHeader({ 'payment-signature': encodeHeader(withAuthorization({ value: (2n ** 256n - 1n).toString(), validAfter: '0' })) }).kind).toBe('v2');
  });

  it('checks the signature is whole bytes of 0x-prefixed hex, long enough for smart wallets but bounded', () => {
    const rule = 'invalid_payment_header: PAYMENT-SIGNATURE payload.signature must be 0x-prefixed hex of whole bytes, 1 to 4096 bytes';
    for (const bad of ['0x1', '0x', 'ab'.repeat(65), `0x${'zz'.repeat(65)}`, `0x${'ab'.repeat(4097)}`, 27]) {
      expect(malformed({ ...v2, payload: { signature: bad, authorization } }), String(bad).slice(0, 20)).toBe(rule);
    }
    const smartWallet = `0x${'ab'.repeat(4096)}`;
    expect(readPaymentHeader({ 'payment-signature': encodeHeader({ ...v2, payload: { signature: smartWallet, authorization } }) }).kind).toBe('v2');
  });

  it('checks a Permit2 payload (told apart as @x402/evm does, by permit2Authorization)', () => {
    const permit2Authorization = {
      from: authorization.from,
      permitted: { token: requirement.asset, amount: '2000' },
      spender: '0x4020615294c913F045dc10f0a5cdEbd86c280001',
      nonce: (2n ** 200n).toString(),
      deadline: '1700000600',
      witness: { to: requirement.payTo, validAfter: '1700000000' },
    };
    expect(readPaymentHeader({ 'payment-signature': encodeHeader({ ...v2, payload: { signature, permit2Authorization } }) }).kind).toBe('v2');
    expect(malformed({ ...v2, payload: { signature, permit2Authorization: { ...permit2Authorization, nonce: '0xff' } } })).toBe(
      'invalid_payment_header: PAYMENT-SIGNATURE payload.permit2Authorization.nonce must be a decimal integer below 2^256',
    );
    expect(malformed({ ...v2, payload: { signature, permit2Authorization: { ...permit2Authorization, witness: {} } } })).toBe(
      'invalid_payment_header: PAYMENT-SIGNATURE payload.permit2Authorization.witness.to is missing',
    );
  });

  it('checks every field of the accepted requirements', () => {
    const cases: Array<[unknown, string]> = [
      [without(requirement, 'network'), 'accepted.network is missing'],
      [{ ...requirement, network: 'base' }, 'accepted.network must be a CAIP-2 network id such as eip155:8453'],
      [{ ...requirement, network: 'EIP155:8453' }, 'accepted.network must be a CAIP-2 network id such as eip155:8453'],
      [{ ...requirement, network: 8453 }, 'accepted.network must be a CAIP-2 network id such as eip155:8453'],
      [without(requirement, 'scheme'), 'accepted.scheme is missing'],
      [{ ...requirement, scheme: '' }, 'accepted.scheme must be a non-empty string of at most 32 characters'],
      [{ ...requirement, amount: '2000.0' }, 'accepted.amount must be a decimal integer below 2^256'],
      [{ ...requirement, amount: 2000 }, 'accepted.amount must be a decimal integer below 2^256'],
      [{ ...requirement, asset: '' }, 'accepted.asset must be a non-empty string of at most 128 characters'],
      [{ ...requirement, payTo: 'x'.repeat(129) }, 'accepted.payTo must be a non-empty string of at most 128 characters'],
      [{ ...requirement, maxTimeoutSeconds: 0 }, 'accepted.maxTimeoutSeconds must be a positive integer'],
      [{ ...requirement, maxTimeoutSeconds: 1.5 }, 'accepted.maxTimeoutSeconds must be a positive integer'],
      [{ ...requirement, maxTimeoutSeconds: '300' }, 'accepted.maxTimeoutSeconds must be a positive integer'],
      [{ ...requirement, extra: 'USD Coin' }, 'accepted.extra must be an object'],
      [{ ...requirement, extra: null }, 'accepted.extra must be an object'],
      [[requirement], 'accepted must be an object'],
    ];
    for (const [accepted, problem] of cases) {
      expect(malformed({ ...v2, accepted }), problem).toBe(`invalid_payment_header: PAYMENT-SIGNATURE ${problem}`);
    }
    expect(malformed(without(v2, 'accepted'))).toBe('invalid_payment_header: PAYMENT-SIGNATURE accepted is missing');
    expect(readPaymentHeader({ 'payment-signature': encodeHeader({ ...v2, accepted: without(requirement, 'extra') }) }).kind).toBe('v2');
    expect(malformed(withAccepted({ network: 'eip155:8453', amount: '-1' }))).toMatch(/accepted.amount/);
  });

  it('checks resource and extensions as @x402/core types them', () => {
    expect(malformed({ ...v2, resource: 'https://fileshift.example/x' })).toBe('invalid_payment_header: PAYMENT-SIGNATURE resource must be an object');
    expect(malformed({ ...v2, resource: {} })).toBe('invalid_payment_header: PAYMENT-SIGNATURE resource.url is missing');
    expect(malformed({ ...v2, extensions: [] })).toBe('invalid_payment_header: PAYMENT-SIGNATURE extensions must be an object');
    expect(readPaymentHeader({ 'payment-signature': encodeHeader({ ...without(v2, 'resource'), extensions: { bazaar: { info: {} } } }) }).kind).toBe('v2');
  });

  it('checks a Solana payload is a bounded base64 transaction', () => {
    const solana = { x402Version: 2, accepted: solanaRequirement, payload: { transaction: solanaTransaction } };
    expect(readPaymentHeader({ 'payment-signature': encodeHeader(solana) })).toEqual({ kind: 'v2', payload: solana });
    const rule = 'must be a standard base64 string of at most 4096 characters';
    expect(malformed({ ...solana, payload: {} })).toBe('invalid_payment_header: PAYMENT-SIGNATURE payload.transaction is missing');
    for (const bad of ['', 'not base64!', 'AQI', 'A-_B', 42, 'A'.repeat(4100)]) {
      expect(malformed({ ...solana, payload: { transaction: bad } }), String(bad).slice(0, 20)).toBe(`invalid_payment_header: PAYMENT-SIGNATURE payload.transaction ${rule}`);
    }
  });

  it('only asks an object of payloads of schemes and families it does not know (the gate refuses those)', () => {
    for (const accepted of [{ ...requirement, scheme: 'upto' }, { ...requirement, network: 'cosmos:cosmoshub-4' }]) {
      expect(readPaymentHeader({ 'payment-signature': encodeHeader({ ...v2, accepted, payload: {} }) }).kind).toBe('v2');
      expect(malformed({ ...v2, accepted, payload: 'x' })).toBe('invalid_payment_header: PAYMENT-SIGNATURE payload must be an object');
    }
  });

  it('explains what is wrong with a header that is not a payment at all', () => {
    const cases: Array<[string, string]> = [
      ['%%%not-base64%%%', 'is not base64-encoded JSON'],
      ['QUJD=D', 'is not base64-encoded JSON'],
      [Buffer.from('{"x402Version":2').toString('base64'), 'is not base64-encoded JSON'],
      [Buffer.from([0x7b, 0xff, 0xfe, 0x7d]).toString('base64'), 'is not base64-encoded JSON'],
      [encodeHeader([1, 2]), 'is not a JSON object'],
      [encodeHeader(null), 'is not a JSON object'],
      [encodeHeader('payment'), 'is not a JSON object'],
      [encodeHeader({ payload: {} }), 'x402Version is missing'],
      [encodeHeader({ x402Version: 7, payload: {} }), 'x402Version must be 1 or 2'],
      [encodeHeader({ x402Version: '2', accepted: requirement, payload: {} }), 'x402Version must be 1 or 2'],
      ['A'.repeat(MAX_PAYMENT_HEADER_CHARS + 1), `is longer than ${MAX_PAYMENT_HEADER_CHARS} characters`],
    ];
    for (const [value, problem] of cases) {
      expect(malformed(value), problem).toBe(`invalid_payment_header: PAYMENT-SIGNATURE ${problem}`);
    }
  });

  it('refuses JSON nested deeper than any payment needs', () => {
    let deep: unknown = {};
    for (let level = 0; level < 100; level++) deep = { deeper: deep };
    expect(malformed({ ...v2, extensions: { deep } })).toBe('invalid_payment_header: PAYMENT-SIGNATURE nests deeper than 64 levels');
  });

  it('never echoes what the client sent', () => {
    const reason = malformed(withAuthorization({ value: '<script>alert(1)</script>' }));
    expect(reason).not.toContain('script');
  });
});

describe('paymentNonce', () => {
  const evm = (payload: Record<string, unknown>): PaymentPayload => ({ x402Version: 2, accepted: requirement, payload });

  it('uses the EIP-3009 nonce, case-insensitively', () => {
    expect(paymentNonce(evm({ signature, authorization: { ...authorization, nonce: `0x${'AB'.repeat(32)}` } }))).toBe(`0x${'ab'.repeat(32)}`);
    expect(payerOf(evm({ signature, authorization }))).toBe(authorization.from);
  });

  it('digests payloads without a nonce, independent of key order', () => {
    const solana = (payload: Record<string, unknown>): PaymentPayload => ({ x402Version: 2, accepted: solanaRequirement, payload });
    const a = paymentNonce(solana({ transaction: 'AQID', extra: 1 }));
    const b = paymentNonce(solana({ extra: 1, transaction: 'AQID' }));
    expect(a).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(a).toBe(b);
    expect(paymentNonce(solana({ transaction: 'AQIE' }))).not.toBe(a);
  });

  it('takes a nonce and a payer from EVM payloads only', () => {
    const solana: PaymentPayload = { x402Version: 2, accepted: solanaRequirement, payload: { transaction: 'AQID', authorization } };
    expect(paymentNonce(solana)).toMatch(/^sha256:/);
    expect(payerOf(solana)).toBeUndefined();
  });
});
