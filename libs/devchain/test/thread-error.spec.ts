import { FacilitatorResponseError } from '@x402/core/server';
import { SettleError, VerifyError } from '@x402/core/types';
import { describe, expect, it } from 'vitest';
import { fromThreadError, toThreadError } from '../src/thread-error.js';

/** As a message between threads carries it: structured clone keeps plain data only. */
const across = (error: unknown) => fromThreadError(structuredClone(toThreadError(error)));

describe('errors crossing between threads', () => {
  it('keeps the x402 error classes and what they carry', () => {
    const verify = across(new VerifyError(400, { isValid: false, invalidReason: 'invalid_exact_evm_payload_signature', invalidMessage: 'bad', payer: '0xabc' }));
    expect(verify).toBeInstanceOf(VerifyError);
    expect(verify).toMatchObject({ statusCode: 400, invalidReason: 'invalid_exact_evm_payload_signature', invalidMessage: 'bad', payer: '0xabc', message: 'invalid_exact_evm_payload_signature: bad' });

    const settle = across(new SettleError(402, { success: false, errorReason: 'insufficient_funds', transaction: '', network: 'eip155:31337' }));
    expect(settle).toBeInstanceOf(SettleError);
    expect(settle).toMatchObject({ statusCode: 402, errorReason: 'insufficient_funds', network: 'eip155:31337' });

    expect(across(new FacilitatorResponseError('broken answer'))).toBeInstanceOf(FacilitatorResponseError);
  });

  it('keeps the name, message and code of any other error down its cause chain', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8545'), { code: 'ECONNREFUSED' });
    const error = across(new TypeError('fetch failed', { cause: refused }));
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toBe('fetch failed');
    expect(error.cause).toMatchObject({ name: 'Error', message: refused.message, code: 'ECONNREFUSED' });

    const timeout = new Error('The request took too long');
    timeout.name = 'TimeoutError';
    expect(across(timeout)).toMatchObject({ name: 'TimeoutError', message: 'The request took too long' });
    expect(across('a thrown string')).toMatchObject({ name: 'Error', message: 'a thrown string' });
  });

  it('stops following a cause chain that loops', () => {
    const first = new Error('first');
    const second = new Error('second', { cause: first });
    first.cause = second;
    let depth = 0;
    for (let carried: unknown = across(first); carried instanceof Error; carried = carried.cause) depth++;
    expect(depth).toBeLessThanOrEqual(9);
  });
});
