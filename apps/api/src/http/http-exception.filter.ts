import { type ArgumentsHost, Catch, type ExceptionFilter, UseFilters } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { X402UnavailableException } from '@fileshift/x402-nest';
import { ApiErrorException } from './api-error.exception.js';
import { type ApiName, apiOfFastifyRequest } from './api-of-request.js';
import { errorBodyFor, type PublicError } from './error-body.js';
import { keyApiPublicError } from './key-api-error-mapping.js';
import { x402PublicError } from './x402-error-mapping.js';

/** Each API's mapping of what was thrown; everything outside both APIs answers like the x402 API. */
const PUBLIC_ERROR_OF_API: Record<ApiName, (exception: unknown) => PublicError> = { x402: x402PublicError, key: keyApiPublicError, other: x402PublicError };

/** Answers anything thrown in the status, headers and error shape of `api`; never a stack trace or an internal message. */
export function sendError(exception: unknown, request: FastifyRequest, reply: FastifyReply, api: ApiName = apiOfFastifyRequest(request)): void {
  const error = PUBLIC_ERROR_OF_API[api](exception);
  if (error.status >= 500) request.log.error({ err: exception }, 'request failed');
  if (exception instanceof X402UnavailableException) reply.header('Retry-After', String(exception.retryAfterSeconds));
  if (error.retryAfterSeconds !== undefined) reply.header('Retry-After', String(error.retryAfterSeconds));
  if (exception instanceof ApiErrorException) {
    for (const [name, value] of Object.entries(exception.headers)) reply.header(name, value);
  }
  // Answered before the request's body was read to its end (an upload refused mid-stream): the rest is never read, so
  // the connection closes after the answer. Kept open, it would stall a client still sending into a full socket.
  if (!request.raw.complete) reply.header('Connection', 'close');
  void reply.status(error.status).type('application/json; charset=utf-8').send(errorBodyFor(api, error));
}

/** Errors of requests no API's filter saw (unknown routes, discovery documents): the shape of the request's API. */
@Catch()
export class HttpExceptionFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    sendError(exception, http.getRequest<FastifyRequest>(), http.getResponse<FastifyReply>());
  }
}

/** The x402 API's filter: its domain errors mapped to its statuses and the ErrorResponse shape. */
@Catch()
export class X402ApiFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    sendError(exception, http.getRequest<FastifyRequest>(), http.getResponse<FastifyReply>(), 'x402');
  }
}

/** The key API's filter: its domain errors mapped to its statuses and the `{Status, Message}` shape. */
@Catch()
export class KeyApiFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    sendError(exception, http.getRequest<FastifyRequest>(), http.getResponse<FastifyReply>(), 'key');
  }
}

/** On every x402 controller. */
export const X402Api = () => UseFilters(X402ApiFilter);
/** On every key API controller. */
export const KeyApi = () => UseFilters(KeyApiFilter);
