import type { SpendLimit } from './spend-policy.js';

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

/** A wait (e.g. for a conversion) ran past its limit. */
export class TimeoutError extends Error {
  override readonly name = 'TimeoutError';
}

/** The 402 body: what the server accepts. */
export interface PaymentChallenge {
  x402Version: number;
  error?: string;
  resource?: { url: string; description?: string; mimeType?: string };
  accepts: Array<{ scheme: string; network: string; asset: string; amount: string; payTo: string; maxTimeoutSeconds: number; extra?: Record<string, unknown> }>;
}
