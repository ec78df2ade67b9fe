import { type FacilitatorClient, FacilitatorResponseError } from '@x402/core/server';
import type { PaymentPayload, PaymentRequirements, SettleResponse, SupportedResponse, VerifyResponse } from '@x402/core/types';
import type { FacilitatorOperation } from './service-metrics.js';

/**
 * Counts the facilitator's outages on their way out, changing nothing: wraps the guarded client, which
 * reports every outage (unreachable, timed out, 5xx, chain down) as a FacilitatorResponseError. Refusals of
 * a payment are answers, not errors, and pass uncounted.
 */
export class MeteredFacilitatorClient implements FacilitatorClient {
  constructor(
    private readonly inner: FacilitatorClient,
    private readonly onUnavailable: (operation: FacilitatorOperation) => void,
  ) {}

  verify(payload: PaymentPayload, requirements: PaymentRequirements): Promise<VerifyResponse> {
    return this.counted('verify', () => this.inner.verify(payload, requirements));
  }

  settle(payload: PaymentPayload, requirements: PaymentRequirements): Promise<SettleResponse> {
    return this.counted('settle', () => this.inner.settle(payload, requirements));
  }

  getSupported(): Promise<SupportedResponse> {
    return this.counted('supported', () => this.inner.getSupported());
  }

  private async counted<T>(operation: FacilitatorOperation, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (error instanceof FacilitatorResponseError) this.onUnavailable(operation);
      throw error;
    }
  }
}
