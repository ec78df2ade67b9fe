import { ApiError, JobFailedError, PaymentRequiredError, RateLimitedError, SpendLimitError, TimeoutError, VerificationError } from '@fileshift/sdk';
import { FileInputError } from '../file-input-error.js';
import type { FileshiftContext } from '../fileshift-context.js';
import { ServiceFactsError } from '../service-facts.js';
import { ResultNotSavedError } from './deliver-result.js';
import { describeRefusal } from './describe-refusal.js';

/** A failure as a message an agent can act on. */
export function describeError(error: unknown, context: FileshiftContext, { canAskUser = false }: { canAskUser?: boolean } = {}): string {
  if (error instanceof SpendLimitError) return `${describeRefusal(error, context, canAskUser)} Nothing was signed or paid.`;
  if (error instanceof JobFailedError) return `The conversion failed (${error.failureType}): ${error.message} The result was not bought.`;
  if (error instanceof VerificationError) {
    return `What the service signed does not check out, so its answer was not used (nothing was saved; a payment may have been made — wallet_status shows what was spent): ${error.message} Report it to the service's operator.`;
  }
  if (error instanceof RateLimitedError) return `The service is rate limiting: retry after ${error.retryAfter} s.`;
  if (error instanceof PaymentRequiredError) return `The service refused the payment: ${error.message}.`;
  // A url the service would not or could not fetch, found once the payment was verified: the payment was not settled.
  if (error instanceof ApiError && /^source_url_/.test(error.code)) return `The service did not get the file from the url, and charged nothing (${error.code}): ${error.message}`;
  // A 422 comes before the payment challenge: say so, so the agent fixes the request instead of worrying about the wallet.
  if (error instanceof ApiError && error.status === 422) return `The service refused the request before any payment, nothing was paid (${error.code}): ${error.message}`;
  if (error instanceof ApiError) return `The service answered ${error.status} ${error.code}: ${error.message}`;
  if (error instanceof FileInputError || error instanceof TimeoutError || error instanceof ResultNotSavedError || error instanceof ServiceFactsError) {
    return error.message;
  }
  if (error instanceof TypeError && /fetch failed/i.test(error.message)) {
    return `The Fileshift service at ${context.config.serviceUrl} is not reachable (${(error.cause as Error | undefined)?.message ?? error.message}). Is it running?`;
  }
  return `Unexpected error: ${error instanceof Error ? error.message : String(error)}`;
}
