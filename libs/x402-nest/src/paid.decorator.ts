import { applyDecorators, SetMetadata, UseFilters } from '@nestjs/common';
import type { PaidRoute } from './x402-payment.gate.js';
import { PAID_ROUTE_METADATA } from './paid-route.metadata.js';
import { X402ChallengeFilter } from './x402-challenge.filter.js';

export { PAID_ROUTE_METADATA };

export interface PaidOptions extends PaidRoute {
  /** Injection token of the gate to use when an application has several (default: X402PaymentGate). */
  gate?: string | symbol;
}

/**
 * Marks a route as paid with x402. Its handler receives the request's payment with `@Payment()`,
 * collects it once the request is known to be valid, and settles it once the work is done; a challenge
 * is answered in the x402 shape.
 */
export function Paid(options: PaidOptions): MethodDecorator {
  return applyDecorators(SetMetadata(PAID_ROUTE_METADATA, options), UseFilters(X402ChallengeFilter));
}
