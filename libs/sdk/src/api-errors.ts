import { decodePaymentRequiredHeader } from '@x402/core/http';
import { ApiError, NetworkError, type PaymentChallenge, PaymentRequiredError, RateLimitedError } from './errors.js';
import { retryAfterSeconds } from './retry-after.js';

/** The typed error for a failed answer of either API; `now` dates a Retry-After given as an HTTP date. */
export function errorFromResponse(response: Response, body: unknown, now: number): ApiError {
  const x402 = (body as { error?: { code?: string; message?: string; details?: Record<string, unknown> } } | undefined)?.error;
  const key = body as { Status?: string; Message?: string } | undefined;
  const message = (typeof x402 === 'object' ? x402?.message : undefined) ?? (key?.Status === 'Error' ? key.Message : undefined) ?? `HTTP ${response.status}`;
  if (response.status === 402) {
    const challenge = isChallenge(body) ? body : challengeOfHeader(response);
    if (challenge) return new PaymentRequiredError(challenge.error ? `Payment required: ${challenge.error}` : 'Payment required', challenge);
  }
  if (response.status === 429) return new RateLimitedError(message, retryAfterSeconds(response.headers.get('Retry-After'), now) ?? 1);
  const code = (typeof x402 === 'object' ? x402?.code : undefined) ?? (response.status === 401 ? 'unauthorized' : `http_${response.status}`);
  return new ApiError(response.status, code, message, typeof x402 === 'object' ? x402?.details : undefined);
}

/** An openapi-fetch result's data, or its typed error. */
export function unwrap<T>(result: { data?: T; error?: unknown; response: Response }, now: number): T {
  if (result.response.ok && result.data !== undefined) return result.data;
  throw errorFromResponse(result.response, result.error, now);
}

/** `fetch` whose connection failures are NetworkErrors (an abort stays the signal's reason). */
export function reportingNetworkErrors(fetch: typeof globalThis.fetch): typeof globalThis.fetch {
  return async (input, init) => {
    // A malformed URL throws its own TypeError here: only failures of a well-formed request are network errors.
    new URL(input instanceof Request ? input.url : input);
    try {
      return await fetch(input, init);
    } catch (error) {
      const aborted = init?.signal?.aborted || (input instanceof Request && input.signal.aborted);
      if (aborted || !(error instanceof TypeError) || error instanceof NetworkError) throw error;
      throw new NetworkError(error.message, { cause: error.cause ?? error });
    }
  };
}

/** The challenge of the PAYMENT-REQUIRED header (base64 JSON): some servers send it there only, with an empty body. */
function challengeOfHeader(response: Response): PaymentChallenge | undefined {
  const header = response.headers.get('PAYMENT-REQUIRED');
  if (!header) return undefined;
  try {
    const decoded: unknown = decodePaymentRequiredHeader(header);
    return isChallenge(decoded) ? decoded : undefined;
  } catch {
    return undefined; // not base64 JSON: no challenge to show
  }
}

function isChallenge(body: unknown): body is PaymentChallenge {
  return typeof body === 'object' && body !== null && Array.isArray((body as PaymentChallenge).accepts);
}
