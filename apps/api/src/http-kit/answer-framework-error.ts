import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { apiOfFastifyRequest } from './api-of-request.js';
import { sendError } from './http-exception.filter.js';

/**
 * Fastify's `frameworkErrors`: what the router raises before any hook or route runs — a malformed
 * percent-escape (FST_ERR_BAD_URL, 400), a path parameter over its maximum length
 * (FST_ERR_MAX_PARAM_LENGTH, 414). Left to Fastify they answer its own shape and quote the URL; here
 * they take the path of every other error: the shape of the request's API, a message of our own.
 * (It replaces Nest's default, whose only addition is the security-headers hook this app does not use.)
 */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  // The onRequest hook that sets it on every other answer does not run before routing.
  void reply.header('x-request-id', request.id);
  sendError(error, request, reply, apiOfFastifyRequest(request));
}
