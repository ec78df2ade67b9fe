import { createHash } from 'node:crypto';
import { declarePaymentIdentifierExtension, extractAndValidatePaymentIdentifier, PAYMENT_IDENTIFIER } from '@x402/extensions/payment-identifier';
import type { PaymentPayload } from '@x402/core/types';
import type { FastifyRequest } from 'fastify';
import { payerOf } from './payment-nonce.js';

/** What every challenge declares: a payment may carry an identifier (x402 `payment-identifier`), none is required. */
const PAYMENT_IDENTIFIER_DECLARATION: Record<string, unknown> = { [PAYMENT_IDENTIFIER]: declarePaymentIdentifierExtension(false) };

/**
 * The extensions a route's challenge declares: payment identifiers, and the route's own (Bazaar metadata…). The
 * discovery documents publish the same, from here.
 */
export function challengeExtensions(routeExtensions?: Record<string, unknown>): Record<string, unknown> {
  return { ...PAYMENT_IDENTIFIER_DECLARATION, ...routeExtensions };
}

/** A payment's identifier, or why it is refused. */
export type CarriedIdentifier = { kind: 'none' } | { kind: 'invalid'; reason: string } | { kind: 'valid'; scoped: string };

/**
 * The identifier a payment carries, scoped by the payer it names (`payer/id`): one payer's identifier never
 * answers another's request. A payload without a named payer (Solana) is scoped to the network.
 */
export function carriedIdentifier(payload: PaymentPayload): CarriedIdentifier {
  const carried = payload.extensions?.[PAYMENT_IDENTIFIER];
  if (!carried) return { kind: 'none' };
  // Checked by our rules (the declared schema's: `required` a boolean, `id` 16–128 of [A-Za-z0-9_-]), never by the
  // schema the client echoed: @x402/extensions compiles an echoed schema with Ajv on every call (tens of ms of CPU a
  // request), and what a client sends is not what a payment is checked against.
  const info = typeof carried === 'object' ? (carried as { info?: unknown }).info : undefined;
  const { id, validation } = extractAndValidatePaymentIdentifier({ ...payload, extensions: { [PAYMENT_IDENTIFIER]: { info } } });
  // A declaration echoed without an id (a client that does not use identifiers) is no identifier.
  if (validation.valid && !id) return { kind: 'none' };
  if (!validation.valid || !id) return { kind: 'invalid', reason: (validation.errors ?? ['not a valid identifier']).join('; ') };
  return { kind: 'valid', scoped: `${(payerOf(payload) ?? payload.accepted.network).toLowerCase()}/${id}` };
}

/**
 * What makes two requests "the same" for an identifier: the route, method, path and query, price and JSON body. A
 * multipart body is read by its route, not here: such a route dedupes by the identifier itself (see
 * RoutePayment.identifier).
 */
export function requestFingerprint(request: FastifyRequest, route: string, priceAtomic: string): string {
  const body = request.body !== undefined && !Buffer.isBuffer(request.body) ? request.body : null;
  return operationFingerprint(route, request.method, request.url, priceAtomic, body);
}

/**
 * The same for a request made by other means (an MCP tool call): `url` is the path and query the HTTP request would
 * have, `body` its JSON body (null without one), so one request has one fingerprint on either transport.
 */
export function operationFingerprint(route: string, method: string, url: string, priceAtomic: string, body: unknown): string {
  return createHash('sha256').update(JSON.stringify([route, method, url, priceAtomic, body])).digest('base64url');
}
