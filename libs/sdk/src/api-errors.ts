import { ApiError, NetworkError, type PaymentChallenge, PaymentRequiredError, RateLimitedError } from './errors.js';

/** The typed error for a failed answer of either API. */
export function errorFromResponse(response: Response, body: unknown): ApiError {
  const x402 = (body as { error?: { code?: string; message?: string; details?: Record<string, unknown> } } | undefined)?.error;
  const key = body as { Status?: string; Message?: string } | undefined;
  const message = (typeof x402 === 'object' ? x402?.message : undefined) ?? (key?.Status === 'Error' ? key.Message : undefined) ?? `HTTP ${response.status}`;
  if (response.status === 402 && isChallenge(body)) {
    return new PaymentRequiredError(body.error ? `Payment required: ${body.error}` : 'Payment required', body);
  }
  if (response.status === 429) return new RateLimitedError(message, Number(response.headers.get('Retry-After')) || 1);
  const code = (typeof x402 === 'object' ? x402?.code : undefined) ?? (response.status === 401 ? 'unauthorized' : `http_${response.status}`);
  return new ApiError(response.status, code, message, typeof x402 === 'object' ? x402?.details : undefined);
}

/** An openapi-fetch result's data, or its typed error. */
export function unwrap<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.response.ok && result.data !== undefined) return result.data;
  throw errorFromResponse(result.response, result.error);
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

function isChallenge(body: unknown): body is PaymentChallenge {
  return typeof body === 'object' && body !== null && Array.isArray((body as PaymentChallenge).accepts);
}
