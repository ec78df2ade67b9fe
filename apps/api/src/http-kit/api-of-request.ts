import type { FastifyRequest } from 'fastify';

/** The public API a request belongs to: it decides the error shape and which limits apply. */
export type ApiName = 'x402' | 'key' | 'other';

const X402_API_ROOT = '/api/x402/v1';
const KEY_API_ROOTS = ['/api/v1', '/tmp'] as const;

/** RFC 3986 unreserved characters: percent-encoding them changes nothing (RFC 3986 §6.2.2.2). */
const UNRESERVED = /^[A-Za-z0-9\-._~]$/;
const PERCENT_ESCAPE = /%([0-9A-Fa-f]{2})/g;

/** Where the request came in, as far as deciding its API needs. */
export interface RequestTarget {
  /** The route pattern the router matched (`/api/x402/v1/convert-file/:job_id/status`), undefined when none did. */
  routePattern: string | undefined;
  /** The raw request target, as sent (`request.url`). */
  url: string;
}

/**
 * The API of a request: by the route the router matched, so an encoded spelling of a path
 * (`/api/x402/v%31/…`) belongs to the same API as the plain one; by the normalised path when no
 * route matched (404s, and errors the router raises before matching).
 */
export function apiOfRequest(target: RequestTarget): ApiName {
  return apiOfPath(target.routePattern ?? normalisedPath(target.url));
}

/** The route pattern Fastify matched for `request`, undefined for 404s and errors raised before routing. */
export function matchedRoutePattern(request: FastifyRequest): string | undefined {
  return request.is404 ? undefined : request.routeOptions.url;
}

/** `apiOfRequest` for a Fastify request. */
export function apiOfFastifyRequest(request: FastifyRequest): ApiName {
  return apiOfRequest({ routePattern: matchedRoutePattern(request), url: request.url });
}

/**
 * The API a normalised path (or a route pattern) lies under. Case-sensitive, like the router and
 * like RFC 3986 paths: `/API/v1/convert` matches no route of the key API, so it is no part of it.
 */
export function apiOfPath(path: string): ApiName {
  if (isUnder(path, X402_API_ROOT)) return 'x402';
  if (KEY_API_ROOTS.some((root) => isUnder(path, root))) return 'key';
  return 'other';
}

/**
 * The path of a raw request target in a canonical spelling: query dropped, escapes of unreserved
 * characters decoded (`%61pi` → `api`), empty segments dropped (`//`). Other escapes stay as sent, so
 * `%2F` is never a separator (the router agrees) and a malformed escape (`%E0%A4%A`) cannot throw.
 * Dot segments stay too: the router takes them literally, so `/tmp/../x` is a request under /tmp/.
 */
export function normalisedPath(url: string): string {
  const path = url.split(/[?#]/, 1)[0] ?? '';
  const segments = path
    .split('/')
    .filter((segment) => segment !== '')
    .map((segment) => segment.replace(PERCENT_ESCAPE, decodeIfUnreserved));
  return `/${segments.join('/')}`;
}

function decodeIfUnreserved(escape: string, hex: string): string {
  const char = String.fromCharCode(Number.parseInt(hex, 16));
  return UNRESERVED.test(char) ? char : escape;
}

function isUnder(path: string, root: string): boolean {
  return path === root || path.startsWith(`${root}/`);
}
