import type { components } from './generated/openapi.js';
import type { PaymentRequest, SpendLimit } from './spend-policy.js';

/** An error answer of the API: `{error: {code, message, details}}` (x402 API) or `{Status: "Error", Message}` (key API). */
export class ApiError extends Error {
  override readonly name: string = 'ApiError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

/** 402: payment is required (no payer configured) or the payment was refused; `challenge` is the decoded 402 body. */
export class PaymentRequiredError extends ApiError {
  override readonly name = 'PaymentRequiredError';
  constructor(
    message: string,
    readonly challenge: PaymentChallenge,
  ) {
    super(402, 'payment_required', message);
  }
}

/** The payer refused to sign: a payment would break one of its limits. Nothing was signed or sent. */
export class SpendLimitError extends Error {
  override readonly name = 'SpendLimitError';
  constructor(
    readonly limit: SpendLimit | 'approval',
    message: string,
    /** The refused payment, when one was chosen (absent when no offered network can be signed for). */
    readonly payment?: PaymentRequest,
  ) {
    super(message);
  }
}

/** 429: retry after `retryAfter` seconds. */
export class RateLimitedError extends ApiError {
  override readonly name = 'RateLimitedError';
  constructor(
    message: string,
    readonly retryAfter: number,
  ) {
    super(429, 'rate_limited', message);
  }
}

/** The conversion job ended `failed`; the result was not bought. */
export class JobFailedError extends Error {
  override readonly name = 'JobFailedError';
  constructor(
    readonly jobId: string,
    readonly failureType: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * A request got no answer (connection refused or lost). A TypeError, as `fetch` reports it, with the
 * original failure as `cause`; the conversion helpers repeat such requests only where that is safe.
 */
export class NetworkError extends TypeError {
  override readonly name = 'NetworkError';
}

/** A wait (e.g. for a conversion) ran past its limit. */
export class TimeoutError extends Error {
  override readonly name = 'TimeoutError';
}

/** The 402 body: what the server accepts (the PaymentRequired schema of the OpenAPI document). */
export type PaymentChallenge = components['schemas']['PaymentRequired'];
