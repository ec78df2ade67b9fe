import type { components } from './generated/openapi.js';
import type { PaymentRequest, SpendLimit } from './spend-policy.js';

type Schemas = components['schemas'];

/**
 * Where a conversion stood when convertFile failed, so that the caller can resume it. Every error
 * convertFile throws once it has sent the job start carries these two fields.
 */
export interface ConversionRef {
  /** The Idempotency-Key the job was started with: convertFile again with it and the same file pays no second job fee. */
  idempotencyKey: string;
  /** The job, once the service answered with it: for getJob, waitForJob, buyResult and deleteJob. */
  jobId?: string;
}

/** An error answer of the API: `{error: {code, message, details}}` (x402 API) or `{Status: "Error", Message}` (key API). */
export class ApiError extends Error {
  override readonly name: string = 'ApiError';
  /** Set when convertFile failed after starting a job (ConversionRef). */
  declare jobId?: string;
  declare idempotencyKey?: string;
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

/**
 * 402: payment is required (no payer configured) or the payment was refused. `challenge` is the
 * decoded challenge: the 402 body, or the PAYMENT-REQUIRED header when only the header carries it.
 */
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
  /** Set when convertFile failed after starting a job (ConversionRef): e.g. the result's price was refused. */
  declare jobId?: string;
  declare idempotencyKey?: string;
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

/** Why a conversion job failed, as the status endpoint reports it. */
export type FailureType = Schemas['JobStatusFailed']['failure_type'];

/** The conversion job ended `failed`; the result was not bought (and never will be charged). */
export class JobFailedError extends Error {
  override readonly name = 'JobFailedError';
  /** Set when convertFile started the job (ConversionRef). */
  declare idempotencyKey?: string;
  constructor(
    readonly jobId: string,
    readonly failureType: FailureType,
    message: string,
    /** What the failed job charged for its result, as its status says (zero: the job fee is not counted here). */
    readonly chargedAmount?: Schemas['Price'],
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
  /** Set when convertFile failed after starting a job (ConversionRef). */
  declare jobId?: string;
  declare idempotencyKey?: string;
}

/** A wait (e.g. for a conversion) ran past its limit; the job goes on on the server. */
export class TimeoutError extends Error {
  override readonly name = 'TimeoutError';
  /** The job waited for (waitForJob, convertFile) and the key it was started with (convertFile). */
  declare jobId?: string;
  declare idempotencyKey?: string;
}

/**
 * convertFile stopped, after it sent the job start, for a reason that is not one of the errors above:
 * its signal aborted (`aborted`; `name` is then "AbortError", as fetch names an abort) or something
 * else failed, e.g. the signer. The reason is `cause`; the job may go on on the server.
 */
export class ConversionInterruptedError extends Error {
  override readonly name: 'AbortError' | 'ConversionInterruptedError';
  constructor(
    readonly aborted: boolean,
    cause: unknown,
    readonly idempotencyKey: string,
    readonly jobId?: string,
  ) {
    super(cause instanceof Error ? cause.message : aborted ? 'The conversion was aborted.' : String(cause), { cause });
    this.name = aborted ? 'AbortError' : 'ConversionInterruptedError';
  }
}

/** The decoded 402 challenge: what the server accepts (the PaymentRequired schema of the OpenAPI document). */
export type PaymentChallenge = Schemas['PaymentRequired'];
