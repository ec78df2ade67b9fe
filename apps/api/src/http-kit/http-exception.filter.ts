import { type ArgumentsHost, Catch, type ExceptionFilter, UseFilters } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { X402UnavailableException } from '@fileshift/x402-nest';
import { ApiErrorException } from './api-error.exception.js';
import { type ApiName, apiOfFastifyRequest } from './api-of-request.js';
import { errorBodyFor, type PublicError } from './error-body.js';
import { toPublicError } from './to-public-error.js';

/** An API's error map: what its client sees of anything thrown (its domain errors by its table, the rest generically). */
export type PublicErrorOf = (exception: unknown) => PublicError;

/** Answers anything thrown in the status, headers and error shape of `api`; never a stack trace or an internal message. */
export function sendError(exception: unknown, request: FastifyRequest, reply: FastifyReply, api: ApiName, publicErrorOf: PublicErrorOf = toPublicError): void {
  const error = publicErrorOf(exception);
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

/**
 * Errors of requests no API's filter saw (unknown routes, discovery documents, health): the shape of the request's
 * API, through that API's error map (given by the app that mounts both APIs).
 */
@Catch()
export class HttpExceptionFilter implements ExceptionFilter {
  constructor(private readonly errorMaps: Readonly<Record<ApiName, PublicErrorOf>>) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const api = apiOfFastifyRequest(request);
    sendError(exception, request, http.getResponse<FastifyReply>(), api, this.errorMaps[api]);
  }
}

/** A class decorator putting every error of a controller's routes through `api`'s error map and shape. */
export function answersErrorsAs(api: ApiName, publicErrorOf: PublicErrorOf): ClassDecorator & MethodDecorator {
  @Catch()
  class ApiExceptionFilter implements ExceptionFilter {
    catch(exception: unknown, host: ArgumentsHost): void {
      const http = host.switchToHttp();
      sendError(exception, http.getRequest<FastifyRequest>(), http.getResponse<FastifyReply>(), api, publicErrorOf);
    }
  }
  return UseFilters(new ApiExceptionFilter());
}
