import { FacilitatorResponseError, type FacilitatorClient } from '@x402/core/server';
import { type PaymentPayload, type PaymentRequirements, SettleError, type SettleResponse, type SupportedResponse, VerifyError, type VerifyResponse } from '@x402/core/types';

/**
 * A facilitator client whose infrastructure failures (unreachable facilitator, chain RPC down)
 * surface as `FacilitatorResponseError`. `@x402/core` turns any other thrown error into a 402
 * "payment refused", which would blame the payer for our outage; this lets the gate answer 503.
 */
export class GuardedFacilitatorClient implements FacilitatorClient {
  constructor(
    private readonly inner: FacilitatorClient,
    /** Optional cheap probe run before verify and settle, e.g. "does the chain RPC answer?". */
    private readonly probe?: () => Promise<void>,
  ) {}

  verify(payload: PaymentPayload, requirements: PaymentRequirements): Promise<VerifyResponse> {
    return this.guard('verify', async () => {
      await this.probe?.();
      return this.inner.verify(payload, requirements);
    });
  }

  settle(payload: PaymentPayload, requirements: PaymentRequirements): Promise<SettleResponse> {
    return this.guard('settle', async () => {
      await this.probe?.();
      return this.inner.settle(payload, requirements);
    });
  }

  getSupported(): Promise<SupportedResponse> {
    return this.guard('supported', () => this.inner.getSupported());
  }

  private async guard<T>(operation: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      // A refused payment stays a refusal (402); only infrastructure failures become unavailability.
      if (error instanceof FacilitatorResponseError || error instanceof VerifyError || error instanceof SettleError) throw error;
      const failure = new FacilitatorResponseError(`facilitator ${operation} failed: ${error instanceof Error ? error.message : String(error)}`);
      failure.cause = error;
      throw failure;
    }
  }
}
