import { FacilitatorResponseError } from '@x402/core/server';

/** Node and undici codes for a peer that could not be reached or dropped the connection. */
const NETWORK_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'EPIPE',
]);

/**
 * Error names of a request that never got an answer: the DOM `AbortError`/`TimeoutError` of a
 * fetch signal, and viem's transport errors (the chain RPC behind an in-process facilitator).
 */
const TRANSPORT_ERROR_NAMES = new Set(['AbortError', 'TimeoutError', 'HttpRequestError', 'WebSocketRequestError', 'SocketClosedError']);

/**
 * HTTPFacilitatorClient (@x402/core 2.27) reports a non-2xx answer without a verify/settle body as
 * `Error("Facilitator verify failed (503): …")`; a 2xx with a broken body, and a timeout, as
 * FacilitatorResponseError (FacilitatorTimeoutError).
 */
const FACILITATOR_HTTP_FAILURE = /^Facilitator (?:verify|settle|getSupported) failed \((\d{3})\)/;

/**
 * Statuses that say our side is down or misconfigured rather than the payment being wrong: 5xx,
 * timeouts and rate limits, and 401/403/404 (our credentials or facilitator URL). Other 4xx are
 * the facilitator refusing what it was sent.
 */
function isOutageStatus(status: number): boolean {
  return status >= 500 || [401, 403, 404, 408, 429].includes(status);
}

/**
 * Whether an error thrown by a facilitator client means the facilitator (or the chain behind it)
 * could not be reached or answered as broken — an outage — rather than that it failed on the
 * payment it was given. Walks the `cause` chain (fetch wraps its network errors) and the errors
 * of an AggregateError (a host with several addresses).
 */
export function isTransportFailure(error: unknown): boolean {
  const seen = new Set<unknown>();
  const pending: unknown[] = [error];
  for (let current = pending.pop(); current !== undefined; current = pending.pop()) {
    if (!(current instanceof Error) || seen.has(current)) continue;
    seen.add(current);
    if (current instanceof FacilitatorResponseError) return true;
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && (NETWORK_ERROR_CODES.has(code) || code.startsWith('UND_ERR_'))) return true;
    if (TRANSPORT_ERROR_NAMES.has(current.name)) return true;
    // undici's fetch rejects every network failure with exactly this TypeError.
    if (current instanceof TypeError && current.message === 'fetch failed') return true;
    const status = FACILITATOR_HTTP_FAILURE.exec(current.message)?.[1];
    if (status && isOutageStatus(Number(status))) return true;
    if (current.cause !== undefined) pending.push(current.cause);
    if (current instanceof AggregateError) pending.push(...current.errors);
  }
  return false;
}
