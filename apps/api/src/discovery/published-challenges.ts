import { type X402PaymentGate, X402UnavailableException } from '@fileshift/x402-nest';
import type { PaymentRequired } from '@x402/core/types';
import { paidRouteOf } from '../payments/paid-operations.js';
import type { PaidResource } from './paid-resources.js';

/**
 * The challenge each fixed-price resource answers an unpaid request with, by operation id, from the gate that answers
 * them: published, it lets a client sign before its first request. Empty when the facilitator cannot be asked (the
 * discovery document is still served; clients then learn the challenge from a 402).
 */
export async function publishedChallenges(gate: X402PaymentGate, resources: PaidResource[], baseUrl: string): Promise<Map<string, Readonly<PaymentRequired>>> {
  const challenges = new Map<string, Readonly<PaymentRequired>>();
  try {
    for (const resource of resources) {
      const route = paidRouteOf(resource.operationId);
      if (!route || resource.price.mode !== 'fixed') continue;
      challenges.set(resource.operationId, await gate.publishedChallenge(route, resource.method, resource.path, baseUrl, resource.price.atomic_units));
    }
  } catch (error) {
    if (!(error instanceof X402UnavailableException)) throw error;
    challenges.clear();
  }
  return challenges;
}
