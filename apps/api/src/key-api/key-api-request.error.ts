import { DomainError } from '../errors/domain-error.js';

export enum KeyApiRequestErrorCode {
  InvalidKey = 'invalid_key',
  RevokedKey = 'revoked_key',
  EmptyKey = 'empty_key',
  SeveralKeys = 'several_keys',
  UnknownUpload = 'unknown_upload',
  UnknownExtension = 'unknown_extension',
  ConversionFailed = 'conversion_failed',
  ConversionTimeout = 'conversion_timeout',
  ConversionRemoved = 'conversion_removed',
  ClientGone = 'client_gone',
  FileNotFound = 'file_not_found',
  NotOctetStream = 'not_octet_stream',
  BodyTooLarge = 'body_too_large',
  MalformedDetectBody = 'malformed_detect_body',
}

/** A key API request that cannot be served as asked. */
export class KeyApiRequestError extends DomainError<KeyApiRequestErrorCode> {}
