import { HttpException } from '@nestjs/common';
import { ApiErrorCode, ApiErrorException } from './api-error.exception.js';
import type { PublicError } from './error-body.js';

const CODE_BY_STATUS: Record<number, ApiErrorCode> = {
  400: ApiErrorCode.BadRequest,
  401: ApiErrorCode.Unauthorized,
  404: ApiErrorCode.NotFound,
  405: ApiErrorCode.MethodNotAllowed,
  408: ApiErrorCode.RequestTimeout,
  409: ApiErrorCode.Conflict,
  410: ApiErrorCode.Gone,
  413: ApiErrorCode.PayloadTooLarge,
  414: ApiErrorCode.UriTooLong,
  415: ApiErrorCode.UnsupportedMediaType,
  417: ApiErrorCode.ExpectationFailed,
  422: ApiErrorCode.ValidationError,
  429: ApiErrorCode.RateLimited,
  431: ApiErrorCode.HeadersTooLarge,
  503: ApiErrorCode.DependencyUnavailable,
};

const MESSAGE_BY_STATUS: Record<number, string> = {
  400: 'The request is malformed.',
  404: 'No such resource.',
  405: 'Method not allowed on this resource.',
  408: 'The request did not arrive in time.',
  413: 'The request body is larger than allowed.',
  414: 'The request URL is longer than this server accepts.',
  415: 'The request media type is not accepted here.',
  417: 'The Expect header asks for something this server does not do; only 100-continue is supported.',
  431: 'The request headers are larger than this server accepts.',
  500: 'Internal error. The request id in the x-request-id header identifies it in our logs.',
};

/** Messages of framework errors that say more than their status; none of them quotes the request. */
const MESSAGE_BY_FASTIFY_CODE = new Map<string | undefined, string>([
  ['FST_ERR_CTP_INVALID_JSON_BODY', 'The request body is not valid JSON.'],
  ['FST_ERR_CTP_EMPTY_JSON_BODY', 'The request body is not valid JSON.'],
  ['FST_ERR_BAD_URL', 'The request path is not valid: a percent-escape is malformed.'],
  ['FST_ERR_MAX_PARAM_LENGTH', 'A segment of the request path is longer than this server accepts.'],
]);

interface FastifyLikeError {
  statusCode?: number;
  code?: string;
  message?: string;
}

/**
 * Maps anything thrown while handling a request to what the client may see.
 * Only our own exceptions and 4xx framework errors keep their message; everything else becomes
 * a generic 500 so no internal detail or stack trace leaks.
 */
export function toPublicError(error: unknown): PublicError {
  if (error instanceof ApiErrorException) {
    return { status: error.getStatus(), code: error.code, message: error.message, details: error.details };
  }
  if (error instanceof HttpException) {
    const status = error.getStatus();
    return { status, code: CODE_BY_STATUS[status] ?? codeForUnknown(status), message: messageOf(error, status) };
  }
  const fastifyError = error as FastifyLikeError;
  const status = fastifyError?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    const message = MESSAGE_BY_FASTIFY_CODE.get(fastifyError.code) ?? MESSAGE_BY_STATUS[status] ?? 'The request was refused.';
    return { status, code: CODE_BY_STATUS[status] ?? codeForUnknown(status), message };
  }
  if (isDependencyOutage(error)) {
    return { status: 503, code: ApiErrorCode.DependencyUnavailable, message: 'A service this API depends on is unavailable; nothing was charged. Retry shortly.', retryAfterSeconds: 5 };
  }
  return { status: 500, code: ApiErrorCode.InternalError, message: MESSAGE_BY_STATUS[500] };
}

/** Socket errors and PostgreSQL's "cannot connect now" / "connection lost" classes (57P0x, 08xxx). */
const OUTAGE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', '57P01', '57P02', '57P03']);
const OUTAGE_MESSAGE = /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error/i;

/** A database (or other dependency) that could not be reached: the client may retry; it is not our bug. */
function isDependencyOutage(error: unknown): boolean {
  for (let current = error as { code?: unknown; message?: unknown; driverError?: unknown; cause?: unknown } | undefined, depth = 0; current && depth < 4; depth++) {
    const code = typeof current.code === 'string' ? current.code : '';
    if (OUTAGE_CODES.has(code) || code.startsWith('08')) return true;
    if (typeof current.message === 'string' && OUTAGE_MESSAGE.test(current.message)) return true;
    current = (current.driverError ?? current.cause) as typeof current;
  }
  return false;
}

function codeForUnknown(status: number): ApiErrorCode {
  return status >= 500 ? ApiErrorCode.InternalError : ApiErrorCode.BadRequest;
}

function messageOf(error: HttpException, status: number): string {
  if (status === 503 && typeof error.getResponse() === 'string') return error.getResponse() as string;
  if (status >= 500) return MESSAGE_BY_STATUS[500];
  const response = error.getResponse();
  if (typeof response === 'string') return response;
  const message = (response as { message?: unknown }).message;
  if (typeof message === 'string' && !message.startsWith('Cannot ')) return message;
  return MESSAGE_BY_STATUS[status] ?? 'The request was refused.';
}
