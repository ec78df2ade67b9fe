import { ApiError, type ConversionRef, ConversionInterruptedError, JobFailedError, NetworkError, SpendLimitError, TimeoutError } from './errors.js';
import { VerificationError } from './signed-records.js';

/**
 * The error convertFile throws, carrying its job (ConversionRef). The SDK's own errors are made for
 * this one call, so they get the fields; anything else (the signal's reason, a signer's failure) is
 * someone else's object, possibly shared by several calls, so it is wrapped instead of changed.
 */
export function withConversionRef(error: unknown, ref: ConversionRef, signal?: AbortSignal): Error {
  if (error instanceof JobFailedError) {
    error.idempotencyKey = ref.idempotencyKey;
    return error;
  }
  if (error instanceof ApiError || error instanceof SpendLimitError || error instanceof NetworkError || error instanceof TimeoutError || error instanceof VerificationError) {
    error.idempotencyKey = ref.idempotencyKey;
    if (ref.jobId) error.jobId = ref.jobId;
    return error;
  }
  const aborted = signal?.aborted === true;
  return new ConversionInterruptedError(aborted, aborted ? signal.reason : error, ref.idempotencyKey, ref.jobId);
}
