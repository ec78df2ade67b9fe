/** What one hop sends. */
export interface HopRequest {
  method: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

export const isRedirect = (status: number, location: string | undefined) => REDIRECT_STATUSES.has(status) && location !== undefined && location !== '';

// Sent to the origin they were meant for, never to another (the fetch standard drops Authorization; cookies and
// proxy credentials are as secret).
const ORIGIN_BOUND_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];
const BODY_HEADERS = ['content-type', 'content-length', 'content-encoding', 'content-language', 'content-location'];

const without = (headers: Record<string, string>, names: readonly string[]) =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => !names.includes(name.toLowerCase())));

/**
 * The request a redirect leads to, by the fetch standard's rules: 303 turns anything but HEAD into a GET without a
 * body, 301 and 302 turn a POST into one; 307 and 308 send the same method and body. Credentials headers do not
 * cross to another origin.
 */
export function redirectedRequest(status: number, request: HopRequest, from: URL, to: URL): HopRequest {
  const becomesGet = (status === 303 && request.method !== 'HEAD') || ((status === 301 || status === 302) && request.method === 'POST');
  let headers = becomesGet ? without(request.headers, BODY_HEADERS) : { ...request.headers };
  if (from.origin !== to.origin) headers = without(headers, ORIGIN_BOUND_HEADERS);
  return becomesGet ? { method: 'GET', headers } : { method: request.method, headers, body: request.body };
}
