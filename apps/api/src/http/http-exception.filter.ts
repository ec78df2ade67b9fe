import { type ArgumentsHost, Catch, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { X402UnavailableException } from '@fileshift/x402-nest';
import { ApiErrorException } from './api-error.exception.js';
import { apiOfFastifyRequest } from './api-of-request.js';
import { errorBodyFor } from './error-body.js';
import { toPublicError } from './to-public-error.js';

/** The one place that turns thrown errors into responses, in the shape of the API the request belongs to. */
@Catch()
export class HttpExceptionFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    sendError(exception, http.getRequest<FastifyRequest>(), http.getResponse<FastifyReply>());
  }
}

export function sendError(exception: unknown, request: FastifyRequest, reply: FastifyReply): void {
  if (exception instanceof X402UnavailableException) reply.header('Retry-After', String(exception.retryAfterSeconds));
  const error = toPublicError(exception);
  if (error.status >= 500) {
    request.log.error({ err: exception }, 'request failed');
  }
  if (exception instanceof ApiErrorException) {
    for (const [name, value] of Object.entries(exception.headers)) reply.header(name, value);
  }
  void reply.status(error.status).type('application/json; charset=utf-8').send(errorBodyFor(apiOfFastifyRequest(request), error));
}
