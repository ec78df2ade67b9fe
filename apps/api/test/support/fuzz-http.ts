import { Agent, type IncomingHttpHeaders, request as httpRequest } from 'node:http';
import { isDeepStrictEqual } from 'node:util';

/** One request as the fuzzer sends it: the path goes out byte for byte (no URL normalisation). */
export interface FuzzRequest {
  method: string;
  path: string;
  /** A list value sends the header once per entry. */
  headers?: Record<string, string | string[]>;
  body?: Buffer | string;
}

export interface FuzzAnswer {
  status: number;
  /** Lower-cased names, as Node parses them. */
  headers: IncomingHttpHeaders;
  /** Names and values exactly as sent. */
  rawHeaders: string[];
  body: Buffer;
}

/** The request could not even be sent: the HTTP client refuses a header or path (the sample is skipped). */
export class UnsendableRequest extends Error {}

/** Node's client validates names, values and the path before anything is written. */
const CLIENT_REFUSALS = new Set(['ERR_INVALID_CHAR', 'ERR_INVALID_HTTP_TOKEN', 'ERR_UNESCAPED_CHARACTERS', 'ERR_HTTP_INVALID_HEADER_VALUE', 'ERR_INVALID_ARG_VALUE', 'ERR_INVALID_ARG_TYPE']);

/**
 * A keep-alive HTTP client for the fuzzer. node:http rather than fetch: it sends the path as given
 * (`..`, `%2e%2e`, raw Latin-1 bytes), any method token and repeated headers, which is what hostile
 * clients do; it still speaks well-formed HTTP (malformed HTTP is hostile-http.e2e.spec.ts's part).
 */
export function fuzzClient(baseUrl: string, timeoutMs = 60_000) {
  const { hostname, port } = new URL(baseUrl);
  const agent = new Agent({ keepAlive: true, maxSockets: 4 });

  function send(request: FuzzRequest): Promise<FuzzAnswer> {
    return new Promise((resolve, reject) => {
      const body = request.body === undefined ? undefined : Buffer.isBuffer(request.body) ? request.body : Buffer.from(request.body, 'utf8');
      const headers: Record<string, string | string[]> = { ...(request.headers ?? {}) };
      const hasLength = Object.keys(headers).some((name) => name.toLowerCase() === 'content-length' || name.toLowerCase() === 'transfer-encoding');
      if (body !== undefined && !hasLength) headers['content-length'] = String(body.length);
      let outgoing;
      try {
        outgoing = httpRequest({ host: hostname, port, path: request.path, method: request.method, headers, agent, setHost: !Object.keys(headers).some((name) => name.toLowerCase() === 'host') });
      } catch (error) {
        return reject(refusedByClient(error) ? new UnsendableRequest(String((error as Error).message)) : error);
      }
      let answered = false;
      outgoing.setTimeout(timeoutMs, () => outgoing.destroy(new Error(`no answer within ${timeoutMs} ms`)));
      outgoing.on('response', (response) => {
        answered = true;
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, rawHeaders: response.rawHeaders, body: Buffer.concat(chunks) }));
        response.on('error', reject);
      });
      // A reset while the body is still being written, after the answer arrived, is the server
      // refusing the rest of a body it does not want (413): the answer stands.
      outgoing.on('error', (error) => {
        if (!answered) reject(error);
      });
      if (body !== undefined) outgoing.end(body);
      else outgoing.end();
    });
  }

  return { send, close: () => agent.destroy() };
}

function refusedByClient(error: unknown): boolean {
  return error instanceof TypeError || CLIENT_REFUSALS.has((error as { code?: string }).code ?? '');
}

/** The API whose error shape a path must answer in (README, Errors): the key API's roots, else the x402 shape. */
export type ErrorShape = 'x402' | 'key';

const UNRESERVED = /^[A-Za-z0-9\-._~]$/;

/** The path with query and fragment dropped, escapes of unreserved characters decoded and empty segments dropped. */
export function normalisedPath(path: string): string {
  const bare = path.split(/[?#]/, 1)[0] ?? '';
  const segments = bare
    .split('/')
    .filter((segment) => segment !== '')
    .map((segment) =>
      segment.replace(/%([0-9A-Fa-f]{2})/g, (escape, hex: string) => {
        const char = String.fromCharCode(Number.parseInt(hex, 16));
        return UNRESERVED.test(char) ? char : escape;
      }),
    );
  return `/${segments.join('/')}`;
}

export function errorShapeOf(path: string): ErrorShape {
  const normalised = normalisedPath(path);
  return ['/api/v1', '/tmp'].some((root) => normalised === root || normalised.startsWith(`${root}/`)) ? 'key' : 'x402';
}

/** The routes of both APIs (and the free documents), by method and normalised path; a 402 belongs to the paid ones only. */
export const ROUTE_GROUPS: ReadonlyArray<{ group: string; method: string; pattern: RegExp; paid?: boolean }> = [
  { group: 'x402 detect-file-type', method: 'POST', pattern: /^\/api\/x402\/v1\/detect-file-type$/, paid: true },
  { group: 'x402 convert-file', method: 'POST', pattern: /^\/api\/x402\/v1\/convert-file$/, paid: true },
  { group: 'x402 status', method: 'GET', pattern: /^\/api\/x402\/v1\/convert-file\/[^/]+\/status$/ },
  { group: 'x402 result', method: 'GET', pattern: /^\/api\/x402\/v1\/convert-file\/[^/]+\/result$/, paid: true },
  { group: 'x402 delete', method: 'DELETE', pattern: /^\/api\/x402\/v1\/convert-file\/[^/]+\/delete$/ },
  { group: 'x402 download', method: 'GET', pattern: /^\/api\/x402\/v1\/download\/[^/]+$/ },
  { group: 'x402 health', method: 'GET', pattern: /^\/api\/x402\/v1\/health(?:\/ready)?$/ },
  { group: 'key upload', method: 'POST', pattern: /^\/api\/v1\/upload$/ },
  { group: 'key convert', method: 'POST', pattern: /^\/api\/v1\/convert$/ },
  { group: 'key list_ext_out', method: 'POST', pattern: /^\/api\/v1\/list_ext_out$/ },
  { group: 'key list_ext_out_by_type', method: 'POST', pattern: /^\/api\/v1\/list_ext_out_by_type$/ },
  { group: 'key detect_file_type', method: 'POST', pattern: /^\/api\/v1\/detect_file_type$/ },
  { group: 'key /tmp download', method: 'GET', pattern: /^\/tmp\/[^/]+$/ },
  { group: 'discovery', method: 'GET', pattern: /^(?:\/api\/x402\/v1|\/api\/x402\/v1\/formats|\/openapi\.json|\/openapi\.yaml|\/llms\.txt|\/\.well-known\/(?:x402|did)\.json)$/ },
];

/** The route group of a request, by its method and normalised path; `other` for unknown paths or methods. */
export function routeGroupOf(method: string, path: string): string {
  const normalised = normalisedPath(path);
  const route = ROUTE_GROUPS.find((candidate) => candidate.pattern.test(normalised));
  if (!route) return 'other (unknown path)';
  return route.method === method || (route.method === 'GET' && method === 'HEAD') ? route.group : 'other (wrong method)';
}

function isPaidRoute(method: string, path: string): boolean {
  const normalised = normalisedPath(path);
  return ROUTE_GROUPS.some((route) => route.paid && route.method === method && route.pattern.test(normalised));
}

/** What no answer may carry: stack frames, source positions, module paths, absolute paths, JS error names. */
const LEAK_MARKERS = ['    at ', '.ts:', '.js:', 'node_modules', '/work/', '/tmp/fileshift', '/usr/', '/home/'];
const JS_ERROR = /(?:^|[^A-Za-z0-9_])(?:[A-Z][A-Za-z]*)?Error: /;

/**
 * An answer that got past every check of its request: 2xx or 3xx, or the challenge (402) of a paid route. A property
 * whose cases never get that far tests nothing but the refusals.
 */
export function isAccepted(request: Pick<FuzzRequest, 'method' | 'path'>, status: number): boolean {
  return status < 400 || (status === 402 && isPaidRoute(request.method, request.path));
}

/** Counts of what the fuzzer sent and got, printed at the end. */
export class FuzzTally {
  readonly byGroup = new Map<string, number>();
  readonly byProperty = new Map<string, number>();
  readonly acceptedByProperty = new Map<string, number>();
  readonly byStatus = new Map<number, number>();
  readonly skipped = new Map<string, number>();
  serverErrors = 0;

  record(property: string, group: string, status: number, accepted: boolean): void {
    this.byGroup.set(group, (this.byGroup.get(group) ?? 0) + 1);
    this.byProperty.set(property, (this.byProperty.get(property) ?? 0) + 1);
    if (accepted) this.acceptedByProperty.set(property, (this.acceptedByProperty.get(property) ?? 0) + 1);
    this.byStatus.set(status, (this.byStatus.get(status) ?? 0) + 1);
    if (status >= 500) this.serverErrors++;
  }

  /** The share of a property's requests that were accepted (isAccepted). */
  acceptedShare(property: string): number {
    return (this.acceptedByProperty.get(property) ?? 0) / (this.byProperty.get(property) ?? 1);
  }

  skip(reason: string): void {
    this.skipped.set(reason, (this.skipped.get(reason) ?? 0) + 1);
  }

  get total(): number {
    return [...this.byStatus.values()].reduce((sum, n) => sum + n, 0);
  }

  summary(seed: number, elapsedMs: number): string {
    const table = (map: Map<string | number, number>) =>
      [...map.entries()]
        .sort(([a], [b]) => String(a).localeCompare(String(b), 'en', { numeric: true }))
        .map(([key, n]) => `  ${String(key).padEnd(28)} ${n}`)
        .join('\n');
    return [
      `fuzz summary (seed ${seed}; replay with FUZZ_SEED=${seed}): ${this.total} requests in ${(elapsedMs / 1000).toFixed(1)} s, ${this.serverErrors} answered 5xx`,
      'by property (requests, and the share accepted: past every check, or a paid route\'s challenge):',
      [...this.byProperty.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([property, n]) => `  ${property.padEnd(28)} ${String(n).padStart(5)}  ${(100 * this.acceptedShare(property)).toFixed(0).padStart(3)} %`).join('\n'),
      'by route group:',
      table(this.byGroup as Map<string | number, number>),
      'by status:',
      table(this.byStatus as Map<string | number, number>),
      ...(this.skipped.size > 0 ? ['samples skipped (the HTTP client refused to send them):', table(this.skipped as Map<string | number, number>)] : []),
    ].join('\n');
  }
}

/** Everything of the request the server could quote back (decoded forms too): a marker found there is no leak. */
function requestText(request: FuzzRequest): string {
  const parts = [request.path, safeDecode(request.path)];
  for (const value of Object.values(request.headers ?? {}).flat()) {
    parts.push(value, Buffer.from(value, 'base64').toString('utf8'));
  }
  if (request.body !== undefined) {
    const body = Buffer.isBuffer(request.body) ? request.body : Buffer.from(request.body);
    parts.push(body.toString('utf8'), body.toString('latin1'));
  }
  return parts.join('\n');
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** A failed check: the request and the answer, short enough to read in a CI log. */
export class ContractViolation extends Error {
  constructor(problem: string, request: FuzzRequest, answer: FuzzAnswer) {
    const body = answer.body.toString('utf8');
    super(
      `${problem}\n  request: ${request.method} ${JSON.stringify(request.path).slice(0, 300)} headers ${JSON.stringify(request.headers ?? {}).slice(0, 600)} body ${request.body === undefined ? 'none' : `${Buffer.byteLength(request.body)} bytes ${JSON.stringify(String(request.body).slice(0, 300))}`}` +
        `\n  answer: ${answer.status} ${JSON.stringify(answer.headers)} ${JSON.stringify(body.slice(0, 600))}`,
    );
  }
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const sameKeys = (value: Record<string, unknown>, required: string[], optional: string[] = []) =>
  required.every((key) => Object.hasOwn(value, key)) && Object.keys(value).every((key) => required.includes(key) || optional.includes(key));

/**
 * The contract every answer keeps, whatever was sent: no 5xx; an error is JSON in the documented shape
 * of its path's API (the challenge shape for a 402 of a paid route, with the same JSON in PAYMENT-REQUIRED);
 * no stack trace, source position, absolute path or JS error name anywhere the request did not put it.
 */
export function checkAnswer(request: FuzzRequest, answer: FuzzAnswer, forbidden: readonly string[] = []): void {
  const fail = (problem: string): never => {
    throw new ContractViolation(problem, request, answer);
  };
  if (answer.status >= 500) fail(`status ${answer.status}: the service must not answer 5xx to any input`);

  const sent = requestText(request);
  const headerText = answer.rawHeaders.join('\n');
  const bodyText = answer.body.toString('utf8');
  for (const marker of [...LEAK_MARKERS, ...forbidden]) {
    if (!sent.includes(marker) && (bodyText.includes(marker) || headerText.includes(marker))) fail(`the answer contains ${JSON.stringify(marker)}`);
  }
  for (const text of [bodyText, headerText]) {
    const match = JS_ERROR.exec(text);
    if (match && !sent.includes(match[0].trim())) fail(`the answer contains a JS error name (${JSON.stringify(match[0])})`);
  }

  const contentType = answer.headers['content-type'];
  if (contentType?.startsWith('application/json') && request.method !== 'HEAD') {
    try {
      JSON.parse(bodyText);
    } catch {
      fail('the answer says JSON but its body does not parse');
    }
  }
  if (answer.status < 400) return;
  if (contentType !== 'application/json; charset=utf-8') fail(`an error answer must be application/json; charset=utf-8, not ${String(contentType)}`);
  if (request.method === 'HEAD') return;

  const body = JSON.parse(bodyText) as unknown;
  if (!isPlainObject(body)) return fail('the error body is not a JSON object');
  if (answer.status === 402) {
    if (!isPaidRoute(request.method, request.path)) fail('402 from a route that is not paid');
    checkChallenge(body, answer, fail);
    return;
  }
  if (errorShapeOf(request.path) === 'key') {
    if (!sameKeys(body, ['Status', 'Message']) || body.Status !== 'Error' || typeof body.Message !== 'string' || body.Message === '') {
      fail('a key API error must be exactly {"Status": "Error", "Message": string}');
    }
    return;
  }
  const error = body.error;
  if (!sameKeys(body, ['error']) || !isPlainObject(error) || !sameKeys(error, ['code', 'message'], ['details'])) {
    fail('an x402 error must be exactly {"error": {"code", "message", "details"?}}');
  }
  const { code, message, details } = error as Record<string, unknown>;
  if (typeof code !== 'string' || code === '' || typeof message !== 'string' || message === '') fail('error.code and error.message must be non-empty strings');
  if (details !== undefined && !isPlainObject(details)) fail('error.details must be an object');
}

/** `{x402Version, error?, resource, accepts, extensions?}`, and PAYMENT-REQUIRED decoding to the same JSON. */
function checkChallenge(body: Record<string, unknown>, answer: FuzzAnswer, fail: (problem: string) => never): void {
  if (!sameKeys(body, ['x402Version', 'resource', 'accepts'], ['error', 'extensions'])) fail('a 402 body must be the challenge {x402Version, error?, resource, accepts}');
  if (!Number.isInteger(body.x402Version)) fail('x402Version must be an integer');
  if (body.error !== undefined && typeof body.error !== 'string') fail('the challenge error must be a string');
  if (!isPlainObject(body.resource) || typeof body.resource.url !== 'string') fail('the challenge resource must carry its url');
  if (!Array.isArray(body.accepts) || body.accepts.length === 0 || !body.accepts.every(isPlainObject)) fail('the challenge must accept at least one payment');
  const header = answer.headers['payment-required'];
  if (typeof header !== 'string') return fail('a 402 must carry the PAYMENT-REQUIRED header');
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(header, 'base64').toString('utf8'));
  } catch {
    return fail('PAYMENT-REQUIRED is not base64 JSON');
  }
  if (!isDeepStrictEqual(decoded, body)) fail('PAYMENT-REQUIRED and the 402 body differ');
}
