import { FacilitatorResponseError, type HTTPRequestContext, resolvePaymentFlowPhases, type x402ResourceServer } from '@x402/core/server';
import type { PaymentPayload, PaymentRequired, PaymentRequirements, VerifyResponse } from '@x402/core/types';

/** What the verification of a payment against a kept challenge came to. */
export type ChallengeVerification =
  | { kind: 'verified'; requirements: PaymentRequirements; declaredExtensions: Record<string, unknown> | undefined }
  /** Refused for `reason` (the challenge's `error`; none when the facilitator gave none). */
  | { kind: 'refused'; reason: string | undefined }
  /** A flow that does not verify first and settle after the handler: only `processHTTPRequest` drives it. */
  | { kind: 'other-flow' };

/**
 * Verifies `payload` against `challenge`, the one the gate keeps for the route (what the payer was shown), with
 * `@x402/core`'s own steps in `processHTTPRequest`'s order: match an accepted requirement, check the extension echoes,
 * ask the facilitator. What is left out is that method's rebuild of the challenge on every paid request (requirement
 * building, extension enrichment, offers), which gives the same challenge the gate keeps. Refusals carry core's
 * reasons; a facilitator outage (FacilitatorResponseError) is thrown, as core throws it.
 */
export async function verifyAgainstChallenge(
  server: x402ResourceServer,
  challenge: Readonly<PaymentRequired>,
  payload: PaymentPayload,
  request: HTTPRequestContext,
): Promise<ChallengeVerification> {
  // Core's declarations for verification and settlement are the challenge's extensions.
  const declaredExtensions = challenge.extensions as Record<string, unknown> | undefined;
  let requirements: PaymentRequirements | undefined;
  let verified: VerifyResponse & { skipHandler?: unknown };
  try {
    requirements = server.findMatchingRequirements(challenge.accepts, payload);
    if (!requirements) return { kind: 'refused', reason: 'No matching payment requirements' };
    const echoes = server.validateExtensions(challenge as PaymentRequired, payload);
    if (!echoes.valid) return { kind: 'refused', reason: echoes.invalidReason };
    const phases = resolvePaymentFlowPhases(server.getPaymentFlow(payload, requirements));
    if (!phases.verifyBeforeHandler || phases.settleBeforeHandler || !phases.settleAfterHandler) return { kind: 'other-flow' };
    verified = await server.verifyPayment(payload, requirements, declaredExtensions, { request });
  } catch (error) {
    // Core's answer to any error but an outage: a refusal quoting it (the guarded facilitator client words its own).
    if (error instanceof FacilitatorResponseError) throw error;
    return { kind: 'refused', reason: error instanceof Error ? error.message : 'Payment verification failed' };
  }
  if (!verified.isValid) return { kind: 'refused', reason: verified.invalidReason };
  if (verified.skipHandler) throw new Error('a verification that settles without the handler is not supported');
  return { kind: 'verified', requirements, declaredExtensions };
}
