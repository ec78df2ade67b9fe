import type { FacilitatorClient } from '@x402/core/server';
import { FacilitatorResponseError } from '@x402/core/server';
import { type PaymentPayload, type PaymentRequirements, VerifyError } from '@x402/core/types';
import { describe, expect, it, vi } from 'vitest';
import { GuardedFacilitatorClient } from '../src/guarded-facilitator.client.js';

const payload = {} as PaymentPayload;
const requirements = {} as PaymentRequirements;
const settled = { success: true, transaction: '0xabc', network: 'eip155:31337' as const };

function facilitator(overrides: Partial<FacilitatorClient>): FacilitatorClient {
  return {
    verify: async () => ({ isValid: true }),
    settle: async () => settled,
    getSupported: async () => ({ kinds: [], extensions: [], signers: {} }),
    ...overrides,
  };
}

describe('GuardedFacilitatorClient', () => {
  it('does not probe accepted payments', async () => {
    const probe = vi.fn(async () => undefined);
    const guarded = new GuardedFacilitatorClient(facilitator({}), probe);
    expect(await guarded.verify(payload, requirements)).toEqual({ isValid: true });
    expect(await guarded.settle(payload, requirements)).toEqual(settled);
    expect(probe).not.toHaveBeenCalled();
  });

  it('keeps a refusal a refusal when the probe passes', async () => {
    const guarded = new GuardedFacilitatorClient(facilitator({ verify: async () => ({ isValid: false, invalidReason: 'invalid_signature' }) }), async () => undefined);
    expect(await guarded.verify(payload, requirements)).toEqual({ isValid: false, invalidReason: 'invalid_signature' });
    const throwing = new GuardedFacilitatorClient(facilitator({ verify: async () => Promise.reject(new VerifyError(400, { isValid: false, invalidReason: 'expired' })) }), async () => undefined);
    await expect(throwing.verify(payload, requirements)).rejects.toBeInstanceOf(VerifyError);
  });

  it('turns a refusal into unavailability when the probe fails too (our outage, not the payer)', async () => {
    const down = async () => Promise.reject(new Error('ECONNREFUSED'));
    const refused = new GuardedFacilitatorClient(facilitator({ settle: async () => ({ ...settled, success: false, errorReason: 'transaction_failed' }) }), down);
    await expect(refused.settle(payload, requirements)).rejects.toBeInstanceOf(FacilitatorResponseError);
    const thrown = new GuardedFacilitatorClient(facilitator({ verify: async () => Promise.reject(new VerifyError(400, { isValid: false })) }), down);
    await expect(thrown.verify(payload, requirements)).rejects.toThrow(/facilitator verify failed/);
  });

  it('turns any other error into unavailability', async () => {
    const guarded = new GuardedFacilitatorClient(facilitator({ settle: async () => Promise.reject(new TypeError('fetch failed')) }));
    await expect(guarded.settle(payload, requirements)).rejects.toThrow(/facilitator settle failed: fetch failed/);
  });
});
