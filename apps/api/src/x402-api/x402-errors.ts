import { DomainError } from '../errors/domain-error.js';
import { RequestValidationErrorCode } from '../errors/request-validation.error.js';
import { ConversionStartError, ConversionStartErrorCode } from '../conversion-jobs/conversion-start.error.js';
import { JobErrorCode } from './job.error.js';
import { PAYMENT_IDENTIFIER_KEY_PREFIX } from './paid-conversions.js';
import { UploadErrorCode } from '../http-kit/upload.error.js';
import { RateLimitErrorCode } from '../rate-limit/rate-limit.error.js';
import { SourceUrlErrorCode } from '../source-urls/source-url.error.js';
import { ApiErrorCode } from '../http-kit/api-error.exception.js';
import type { PublicError } from '../http-kit/error-body.js';
import { answersErrorsAs } from '../http-kit/http-exception.filter.js';
import { toPublicError } from '../http-kit/to-public-error.js';

/** Every domain error code an x402 route can meet. */
type X402DomainCode = RequestValidationErrorCode | UploadErrorCode | ConversionStartErrorCode | JobErrorCode | RateLimitErrorCode | SourceUrlErrorCode;

/** The x402 API's status and public `error.code` of each domain error (spec: x402-api.md, Errors). */
const X402_ERRORS: Record<X402DomainCode, [status: number, code: string]> = {
  [RequestValidationErrorCode.InvalidFields]: [422, ApiErrorCode.ValidationError],
  [UploadErrorCode.NotMultipart]: [415, ApiErrorCode.UnsupportedMediaType],
  [UploadErrorCode.Malformed]: [400, ApiErrorCode.BadRequest],
  [UploadErrorCode.TooLarge]: [413, ApiErrorCode.PayloadTooLarge],
  [UploadErrorCode.TooManyFiles]: [413, ApiErrorCode.PayloadTooLarge],
  [UploadErrorCode.MissingFile]: [422, ApiErrorCode.ValidationError],
  [UploadErrorCode.EmptyFile]: [422, ApiErrorCode.ValidationError],
  [ConversionStartErrorCode.UnreadableInput]: [422, ApiErrorCode.ValidationError],
  [ConversionStartErrorCode.NoConversionPath]: [422, ApiErrorCode.ValidationError],
  [ConversionStartErrorCode.DedupeKeyReused]: [409, ApiErrorCode.Conflict],
  [ConversionStartErrorCode.DedupeKeyBusy]: [409, ApiErrorCode.Conflict],
  [JobErrorCode.InvalidJobId]: [400, ApiErrorCode.BadRequest],
  [JobErrorCode.InvalidWait]: [400, ApiErrorCode.BadRequest],
  [JobErrorCode.NotFound]: [404, ApiErrorCode.NotFound],
  [JobErrorCode.Deleted]: [410, ApiErrorCode.Gone],
  [JobErrorCode.Expired]: [410, ApiErrorCode.Gone],
  [JobErrorCode.ResultNotReady]: [409, 'result_not_ready'],
  [JobErrorCode.ConversionFailed]: [409, 'conversion_failed'],
  [JobErrorCode.PurchaseInProgress]: [409, ApiErrorCode.Conflict],
  [JobErrorCode.DownloadNotFound]: [404, ApiErrorCode.NotFound],
  [JobErrorCode.DownloadExpired]: [410, ApiErrorCode.Gone],
  [JobErrorCode.ResultMissing]: [410, ApiErrorCode.Gone],
  [RateLimitErrorCode.TooManyRequests]: [429, ApiErrorCode.RateLimited],
  [RateLimitErrorCode.DailyQuotaExceeded]: [429, ApiErrorCode.RateLimited],
  [SourceUrlErrorCode.Refused]: [422, SourceUrlErrorCode.Refused],
  [SourceUrlErrorCode.Failed]: [422, SourceUrlErrorCode.Failed],
  [SourceUrlErrorCode.TooLarge]: [413, ApiErrorCode.PayloadTooLarge],
  [SourceUrlErrorCode.Busy]: [503, SourceUrlErrorCode.Busy],
};

/** What an x402 client sees of anything thrown: domain errors by the table, the rest by their generic mapping. */
export function x402PublicError(exception: unknown): PublicError {
  if (exception instanceof DomainError && Object.hasOwn(X402_ERRORS, exception.code)) {
    const [status, code] = X402_ERRORS[exception.code as X402DomainCode];
    const { message, details } = exception instanceof ConversionStartError ? inX402Words(exception) : exception;
    return { status, code, message, details, retryAfterSeconds: exception.retryAfterSeconds };
  }
  return toPublicError(exception);
}

/** A refusal of the conversion core as the x402 API words it: a failed validation of the field, or of the Idempotency-Key. */
function inX402Words(error: ConversionStartError): { message: string; details?: Record<string, unknown> } {
  const { field, dedupe_key: key, ...hints } = error.details ?? {};
  switch (error.code) {
    case ConversionStartErrorCode.DedupeKeyReused:
      if (byPaymentIdentifier(key)) return { message: 'This payment identifier was used for a different request; nothing was charged. Use a new identifier for a new request.' };
      return { message: 'This Idempotency-Key was used with different request parameters.', details: { idempotency_key: key } };
    case ConversionStartErrorCode.DedupeKeyBusy:
      return { message: `Another request with this ${byPaymentIdentifier(key) ? 'payment identifier' : 'Idempotency-Key'} is being processed; retry shortly.` };
    default:
      return { message: `Validation failed: ${field}: ${error.message}`, details: { fields: [{ field, message: error.message }], ...hints } };
  }
}

const byPaymentIdentifier = (key: unknown) => typeof key === 'string' && key.startsWith(PAYMENT_IDENTIFIER_KEY_PREFIX);

/** On every x402 controller: its errors in the x402 API's statuses and ErrorResponse shape. */
export const X402Api = () => answersErrorsAs('x402', x402PublicError);
