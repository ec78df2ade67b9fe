import { type FacilitatorClient, FacilitatorResponseError } from '@x402/core/server';
import { type PaymentPayload, type PaymentRequirements, type SupportedResponse, VerifyError } from '@x402/core/types';
import { describe, expect, it } from 'vitest';
import { MeteredFacilitatorClient } from './metered-facilitator.client.js';

const payload = {} as PaymentPayload;
const requirements = {} as PaymentRequirements;

/** A facilitator whose every call does what `next` says. */
function facilitator(next: () => Promise<never> | Promise<unknown>): FacilitatorClient {
  return { verify: next, settle: next, getSupported: next } as unknown as FacilitatorClient;
}

describe('MeteredFacilitatorClient', () => {
  it('counts an outage by operation and rethrows the very error', async () => {
    const counted: string[] = [];
    const outage = new FacilitatorResponseError('facilitator verify failed: ECONNREFUSED');
    const client = new MeteredFacilitatorClient(facilitator(() => Promise.reject(outage)), (operation) => counted.push(operation));
    await expect(client.verify(payload, requirements)).rejects.toBe(outage);
    await expect(client.settle(payload, requirements)).rejects.toBe(outage);
    await expect(client.getSupported()).rejects.toBe(outage);
    expect(counted).toEqual(['verify', 'settle', 'supported']);
  });

  it('leaves answers and refusals uncounted and unchanged', async () => {
    const counted: string[] = [];
    const supported = { kinds: [], extensions: [], signers: {} } as unknown as SupportedResponse;
    expect(await new MeteredFacilitatorClient(facilitator(() => Promise.resolve(supported)), (operation) => counted.push(operation)).getSupported()).toBe(supported);
    const refusal = new VerifyError(400, { isValid: false, invalidReason: 'invalid_exact_evm_payload_signature' });
    await expect(new MeteredFacilitatorClient(facilitator(() => Promise.reject(refusal)), (operation) => counted.push(operation)).verify(payload, requirements)).rejects.toBe(refusal);
    expect(counted).toEqual([]);
  });
});
