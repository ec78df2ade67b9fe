import { maxHeaderSize, STATUS_CODES } from 'node:http';
import { apiOfRequest } from './api-of-request.js';
import { errorBodyFor } from './error-body.js';
import { toPublicError } from './to-public-error.js';

/**
 * What Node hands a `clientError` listener: the parser's code and, for parse errors, the Buffer it
 * failed on (Fastify's type says otherwise, so it is checked, not trusted).
 */
export interface ClientError {
  code?: string;
  rawPacket?: unknown;
}

/** Statuses of the socket-level errors that are not plain malformed requests (400), as Node answers them. */
const STATUS_BY_CODE = new Map<string | undefined, number>([
  ['ERR_HTTP_REQUEST_TIMEOUT', 408],
  ['HPE_HEADER_OVERFLOW', 431],
  ['HPE_CHUNK_EXTENSIONS_OVERFLOW', 413],
]);

/** A request line at the start of a packet (after the empty lines RFC 9112 lets a server skip); the target may be cut short. */
const REQUEST_LINE = /^(?:\r?\n)*[A-Z]{1,32} (\S+)/;
/** Enough of a packet to read a request target's prefix; only the prefix decides the API. */
const REQUEST_LINE_SCAN_BYTES = 2048;

/**
 * The status a socket-level error is answered with. Node counts the request line into the header
 * size, so a header overflow whose request line alone is over the limit is a URL too long: 414.
 */
export function clientErrorStatus(error: ClientError, headerLimit = maxHeaderSize): number {
  if (error.code === 'HPE_HEADER_OVERFLOW' && requestLineLength(error.rawPacket) >= headerLimit) return 414;
  return STATUS_BY_CODE.get(error.code) ?? 400;
}

/** Bytes of the request line the packet starts with (all of it when unfinished), 0 when it starts with none. */
function requestLineLength(rawPacket: unknown): number {
  if (requestTargetOf(rawPacket) === undefined) return 0;
  const packet = rawPacket as Buffer;
  let start = 0;
  while (packet[start] === 0x0d || packet[start] === 0x0a) start++;
  const end = packet.indexOf(0x0a, start);
  return (end < 0 ? packet.length : end) - start;
}

/**
 * The request target named by the request line at the start of `rawPacket`, if it starts with one.
 * Node gives the chunk it was parsing when it failed, which is not always the request's first.
 */
export function requestTargetOf(rawPacket: unknown): string | undefined {
  if (!Buffer.isBuffer(rawPacket)) return undefined;
  return REQUEST_LINE.exec(rawPacket.subarray(0, REQUEST_LINE_SCAN_BYTES).toString('latin1'))?.[1];
}

/**
 * The complete HTTP response to a request Node could not parse (or that timed out), in the error
 * shape of the API its request line names — the x402 ErrorResponse shape when it names none. It
 * quotes nothing of the request, and closes the connection: after a parse error the stream cannot be
 * trusted to hold another request.
 */
export function clientErrorResponse(error: ClientError, requestId: string): string {
  const status = clientErrorStatus(error);
  const target = requestTargetOf(error.rawPacket);
  const api = target === undefined ? 'x402' : apiOfRequest({ routePattern: undefined, url: target });
  const body = JSON.stringify(errorBodyFor(api, toPublicError({ statusCode: status })));
  return [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
    `x-request-id: ${requestId}`,
    '',
    body,
  ].join('\r\n');
}
