import { ApiErrorCode, ApiErrorException } from '../http-kit/api-error.exception.js';

/** 401 in the ErrorResponse shape, with the challenge RFC 6750 asks for. */
export function metricsRefusal(): ApiErrorException {
  return new ApiErrorException(
    401,
    ApiErrorCode.Unauthorized,
    'The metrics need the bearer token configured in METRICS_TOKEN (Authorization: Bearer <token>).',
    undefined,
    { 'WWW-Authenticate': 'Bearer realm="metrics"' },
  );
}
