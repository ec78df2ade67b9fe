import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * What a page may send: the payment protocol and the key API live in headers. The official x402 client
 * (`@x402/fetch`) also sends `Access-Control-Expose-Headers` as a request header with its payment: without it
 * here, a browser refuses every paid retry. MCP clients send Mcp-Protocol-Version to /mcp after initialising.
 */
const ALLOWED_REQUEST_HEADERS = ['Content-Type', 'Api-Key', 'PAYMENT-SIGNATURE', 'X-PAYMENT', 'Access-Control-Expose-Headers', 'Idempotency-Key', 'X-Request-Id', 'Mcp-Protocol-Version'].join(', ');
/** What a page's script may read of an answer: the challenge, the receipt, the facilitator's timing, the waits and the limits. */
const EXPOSED_RESPONSE_HEADERS = [
  'PAYMENT-REQUIRED', 'PAYMENT-RESPONSE', 'X-PAYMENT-RESPONSE', 'Server-Timing', 'Retry-After', 'X-Request-Id', 'Content-Disposition',
  'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset',
].join(', ');
const ALLOWED_METHODS = 'GET, POST, DELETE, OPTIONS';
const PREFLIGHT_CACHE_SECONDS = '600';

/** `*` (any page) or the exact origins allowed. */
export type CrossOriginPolicy = '*' | readonly string[];

/** Pure: the Access-Control-Allow-Origin for a request's Origin, or undefined when it is not allowed. */
export function allowedOrigin(policy: CrossOriginPolicy, origin: string | undefined): string | undefined {
  if (!origin) return undefined;
  if (policy === '*') return '*';
  return policy.includes(origin) ? origin : undefined;
}

/**
 * Lets web pages call both APIs (CORS): no cookie or credential is ever involved — a payment is a signature
 * the page sends, a key is a header it sets —, so any origin may be allowed; `CORS_ALLOWED_ORIGINS` narrows it.
 * A preflight is answered here, before routing and rate limits; an origin not allowed gets no CORS headers,
 * so the browser keeps the answer from the page.
 */
export function allowCrossOrigin(fastify: FastifyInstance, policy: CrossOriginPolicy): void {
  const decorate = (request: FastifyRequest, reply: FastifyReply): boolean => {
    const origin = allowedOrigin(policy, request.headers.origin);
    if (!origin) return false;
    reply.header('Access-Control-Allow-Origin', origin);
    if (origin !== '*') reply.header('Vary', 'Origin');
    reply.header('Access-Control-Expose-Headers', EXPOSED_RESPONSE_HEADERS);
    return true;
  };
  // The callback form: this hook never waits, and an async hook costs a promise on every request.
  fastify.addHook('onRequest', (request, reply, done) => {
    const allowed = decorate(request, reply);
    if (request.method !== 'OPTIONS' || !request.headers['access-control-request-method']) return done();
    if (allowed) {
      reply.header('Access-Control-Allow-Methods', ALLOWED_METHODS);
      reply.header('Access-Control-Allow-Headers', ALLOWED_REQUEST_HEADERS);
      reply.header('Access-Control-Max-Age', PREFLIGHT_CACHE_SECONDS);
    }
    // Answered here: the request goes no further (done is not called).
    void reply.code(204).send();
  });
}
