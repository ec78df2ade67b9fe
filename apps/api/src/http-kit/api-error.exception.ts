import { HttpException } from '@nestjs/common';

/** Error codes clients can branch on. The x402 API sends them as `error.code`. */
export enum ApiErrorCode {
  BadRequest = 'bad_request',
  ValidationError = 'validation_error',
  NotFound = 'not_found',
  MethodNotAllowed = 'method_not_allowed',
  RequestTimeout = 'request_timeout',
  ExpectationFailed = 'expectation_failed',
  PayloadTooLarge = 'payload_too_large',
  UriTooLong = 'uri_too_long',
  UnsupportedMediaType = 'unsupported_media_type',
  Conflict = 'conflict',
  Gone = 'gone',
  RateLimited = 'rate_limited',
  HeadersTooLarge = 'headers_too_large',
  Unauthorized = 'unauthorized',
  DependencyUnavailable = 'dependency_unavailable',
  InternalError = 'internal_error',
}

/** An error whose status, code and message are safe to show to the client as they are. */
export class ApiErrorException extends HttpException {
  constructor(
    status: number,
    readonly code: string,
    message: string,
    readonly details?: Record<string, unknown>,
    readonly headers: Record<string, string> = {},
  ) {
    super(message, status);
  }
}
