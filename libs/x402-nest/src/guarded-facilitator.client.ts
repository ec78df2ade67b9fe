import { FacilitatorResponseError, type FacilitatorClient } from '@x402/core/server';
import { type PaymentPayload, type PaymentRequirements, SettleError, type SettleResponse, type SupportedResponse, VerifyError, type VerifyResponse } from '@x402/core/types';
import { isTransportFailure } from './facilitator-transport-failure.js';

/** Told the client instead of the facilitator's own error, which may describe its internals. */
const UNPROCESSABLE_REASON = 'invalid_payload';
const UNPROCESSABLE_MESSAGE = 'the facilitator could not process this payment payload';

/**
 * A facilitator client that tells our outages from refused payments, because @x402/core's HTTP
 * server answers a thrown FacilitatorResponseError by failing the request (the gate answers 503,
 * nothing charged) and any other thrown error with a 402 carrying the error's message.
 *
 * - FacilitatorResponseError, and transport failures (facilitator or chain RPC unreachable, timed
 *   out, answering 5xx): an outage, as FacilitatorResponseError.
 * - A refusal (invalid VerifyResponse, failed SettleResponse, VerifyError, SettleError): stays a
 *   refusal, unless the probe fails too, then it was our outage.
 * - Anything else (e.g. a TypeError in the facilitator's own code on an odd payload): an outage if
 *   the probe fails, otherwise a refusal of that payment as VerifyError / SettleError
 *   `invalid_payload`, without the original message.
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
    /** Hears the facilitator errors that were turned into refusals, which the client never sees. */
    private readonly onRefusedError?: (operation: 'verify' | 'settle', error: unknown) => void,
  ) {}

  async verify(payload: PaymentPayload, requirements: PaymentRequirements): Promise<VerifyResponse> {
    let response: VerifyResponse;
    try {
      response = await this.inner.verify(payload, requirements);
    } catch (error) {
      throw await this.classify('verify', error, () => new VerifyError(400, { isValid: false, invalidReason: UNPROCESSABLE_REASON, invalidMessage: UNPROCESSABLE_MESSAGE }));
    }
    if (!response.isValid) await this.unlessProbeFails('verify');
    return response;
  }

  async settle(payload: PaymentPayload, requirements: PaymentRequirements): Promise<SettleResponse> {
    let response: SettleResponse;
    try {
      response = await this.inner.settle(payload, requirements);
    } catch (error) {
      const refusal = () =>
        new SettleError(400, { success: false, errorReason: UNPROCESSABLE_REASON, errorMessage: UNPROCESSABLE_MESSAGE, transaction: '', network: requirements.network });
      throw await this.classify('settle', error, refusal);
    }
    if (!response.success) await this.unlessProbeFails('settle');
    return response;
  }

  async getSupported(): Promise<SupportedResponse> {
    try {
      return await this.inner.getSupported();
    } catch (error) {
      // Asked once when a route is first served; without an answer nothing can be charged.
      throw outage('supported', error);
    }
  }

  /** What to throw for an error from verify/settle: an outage, the refusal as it came, or our refusal. */
  private async classify(operation: 'verify' | 'settle', error: unknown, refusal: () => VerifyError | SettleError): Promise<Error> {
    if (error instanceof FacilitatorResponseError) return error;
    if (isTransportFailure(error)) return outage(operation, error);
    const probed = await this.runProbe();
    if (!probed.ok) return outage(operation, probed.error);
    if (error instanceof VerifyError || error instanceof SettleError) return error;
    this.onRefusedError?.(operation, error);
    const refused = refusal();
    refused.cause = error;
    return refused;
  }

  /** A refusal while the probe fails is our outage, not the payer's fault. */
  private async unlessProbeFails(operation: 'verify' | 'settle'): Promise<void> {
    const probed = await this.runProbe();
    if (!probed.ok) throw outage(operation, probed.error);
  }

  private async runProbe(): Promise<{ ok: true } | { ok: false; error: unknown }> {
    try {
      await this.probe?.();
      return { ok: true };
    } catch (error) {
      return { ok: false, error };
    }
  }
}

function outage(operation: string, error: unknown): FacilitatorResponseError {
  const failure = new FacilitatorResponseError(`facilitator ${operation} failed: ${error instanceof Error ? error.message : String(error)}`);
  failure.cause = error;
  return failure;
}
