import { OutboundError, type OutboundPolicy, precheckUrl } from '@fileshift/outbound';
import { RequestValidationError } from '../errors/request-validation.error.js';

/** The longest URL a request may carry in a field. */
export const MAX_CALLER_URL_LENGTH = 2048;

/**
 * A URL a request carries for the service to reach (`source_url`, `webhook_url`), checked without the network: the
 * outbound guard's URL rules and, for an address, its address rules. A URL that can never be reached is refused as
 * the request's field, before any charge; the guard checks it again, host names resolved, when it connects.
 */
export function checkedCallerUrl(field: string, text: string, policy: OutboundPolicy): string {
  if (text.length > MAX_CALLER_URL_LENGTH) throw RequestValidationError.of(field, `is longer than ${MAX_CALLER_URL_LENGTH} characters`);
  try {
    return precheckUrl(text, policy, `The ${field}`).href;
  } catch (error) {
    if (error instanceof OutboundError) throw new RequestValidationError([{ field, message: error.message }], { reason: error.code });
    throw error;
  }
}
