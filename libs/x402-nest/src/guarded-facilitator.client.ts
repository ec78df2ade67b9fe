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
    /**
     * Optional cheap probe, e.g. "does the chain RPC answer?". It runs only after a refusal or an
     * error (a facilitator that cannot read the chain refuses the payment): if the probe fails too,
     * the refusal was our outage. Accepted payments never wait for it.
     */
    private readonly probe?: () => Promise<void>,
  ) {}

  verify(payload: PaymentPayload, requirements: PaymentRequirements): Promise<VerifyResponse> {
    return this.guard('verify', async () => {
      const response = await this.inner.verify(payload, requirements);
      if (!response.isValid) await this.probe?.();
      return response;
    });
  }

  settle(payload: PaymentPayload, requirements: PaymentRequirements): Promise<SettleResponse> {
    return this.guard('settle', async () => {
      const response = await this.inner.settle(payload, requirements);
      if (!response.success) await this.probe?.();
      return response;
    });
  }

  getSupported(): Promise<SupportedResponse> {
    return this.guard('supported', () => this.inner.getSupported());
  }

  private async guard<T>(operation: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      // A refused payment stays a refusal (402) unless the probe shows our side is down.
      if (error instanceof FacilitatorResponseError) throw error;
      const refusal = error instanceof VerifyError || error instanceof SettleError;
      if (refusal && (await this.probeSucceeds())) throw error;
      const failure = new FacilitatorResponseError(`facilitator ${operation} failed: ${error instanceof Error ? error.message : String(error)}`);
      failure.cause = error;
      throw failure;
    }
  }

  private async probeSucceeds(): Promise<boolean> {
    try {
      await this.probe?.();
      return true;
    } catch {
      return false;
    }
  }
}
