import { DomainError } from '../errors/domain-error.js';
import { RequestValidationErrorCode } from '../errors/request-validation.error.js';
import { ConversionStartErrorCode } from '../conversion-jobs/conversion-start.error.js';
import { UploadErrorCode } from '../http-kit/upload.error.js';
import { KeyApiRequestErrorCode } from './key-api-request.error.js';
import { RateLimitErrorCode } from '../rate-limit/rate-limit.error.js';
import { SourceUrlErrorCode } from '../source-urls/source-url.error.js';
import type { PublicError } from '../http-kit/error-body.js';
import { answersErrorsAs } from '../http-kit/http-exception.filter.js';
import { toPublicError } from '../http-kit/to-public-error.js';

/** Every domain error code a key API route can meet. */
type KeyApiDomainCode = RequestValidationErrorCode | UploadErrorCode | ConversionStartErrorCode | KeyApiRequestErrorCode | RateLimitErrorCode | SourceUrlErrorCode;

/**
 * The key API's status of each domain error (docs/api/key-api-guide.md). Decided: a bad field is 400 here, and 422
 * means only a failed conversion. The code is logged, not shown: the key API's body is `{Status, Message}`.
 */
const KEY_API_ERRORS: Record<KeyApiDomainCode, number> = {
  [RequestValidationErrorCode.InvalidFields]: 400,
  [UploadErrorCode.NotMultipart]: 415,
  [UploadErrorCode.Malformed]: 400,
  [UploadErrorCode.TooLarge]: 413,
  [UploadErrorCode.TooManyFiles]: 413,
  [UploadErrorCode.MissingFile]: 400,
  [UploadErrorCode.EmptyFile]: 400,
  [ConversionStartErrorCode.UnreadableInput]: 400,
  [ConversionStartErrorCode.NoConversionPath]: 400,
  [ConversionStartErrorCode.DedupeKeyReused]: 409,
  [ConversionStartErrorCode.DedupeKeyBusy]: 409,
  [KeyApiRequestErrorCode.InvalidKey]: 401,
  [KeyApiRequestErrorCode.RevokedKey]: 401,
  [KeyApiRequestErrorCode.EmptyKey]: 401,
  [KeyApiRequestErrorCode.SeveralKeys]: 401,
  [KeyApiRequestErrorCode.UnknownUpload]: 404,
  [KeyApiRequestErrorCode.UnknownExtension]: 400,
  [KeyApiRequestErrorCode.ConversionFailed]: 422,
  [KeyApiRequestErrorCode.ConversionTimeout]: 504,
  [KeyApiRequestErrorCode.ConversionRemoved]: 404,
  [KeyApiRequestErrorCode.ClientGone]: 499,
  [KeyApiRequestErrorCode.FileNotFound]: 404,
  [KeyApiRequestErrorCode.NotOctetStream]: 400,
  [KeyApiRequestErrorCode.BodyTooLarge]: 413,
  [KeyApiRequestErrorCode.MalformedDetectBody]: 400,
  [RateLimitErrorCode.TooManyRequests]: 429,
  [RateLimitErrorCode.DailyQuotaExceeded]: 429,
  [SourceUrlErrorCode.Refused]: 400,
  [SourceUrlErrorCode.Failed]: 400,
  [SourceUrlErrorCode.TooLarge]: 413,
  [SourceUrlErrorCode.Busy]: 503,
};

/** What a key API client sees of anything thrown: domain errors by the table, the rest by their generic mapping. */
export function keyApiPublicError(exception: unknown): PublicError {
  if (exception instanceof DomainError && Object.hasOwn(KEY_API_ERRORS, exception.code)) {
    const status = KEY_API_ERRORS[exception.code as KeyApiDomainCode];
    return { status, code: exception.code, message: exception.message, details: exception.details, retryAfterSeconds: exception.retryAfterSeconds };
  }
  return toPublicError(exception);
}

/** On every key API controller: its errors in the key API's statuses and `{Status, Message}` shape. */
export const KeyApi = () => answersErrorsAs('key', keyApiPublicError);
