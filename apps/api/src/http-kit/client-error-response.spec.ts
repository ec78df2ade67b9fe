import { describe, expect, it } from 'vitest';
import { clientErrorResponse, clientErrorStatus, requestTargetOf } from './client-error-response.js';

const packet = (text: string) => Buffer.from(text, 'latin1');

/** Splits a raw HTTP response into its status line, headers (lower-cased names) and body. */
function parse(response: string) {
  const [head, body] = response.split('\r\n\r\n') as [string, string];
  const [statusLine, ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
  return { statusLine, headers, body, json: JSON.parse(body) as unknown };
}

describe('clientErrorStatus', () => {
  it('maps the socket errors Node names to their statuses, anything else to 400', () => {
    expect(clientErrorStatus({ code: 'HPE_HEADER_OVERFLOW' })).toBe(431);
    expect(clientErrorStatus({ code: 'ERR_HTTP_REQUEST_TIMEOUT' })).toBe(408);
    expect(clientErrorStatus({ code: 'HPE_CHUNK_EXTENSIONS_OVERFLOW' })).toBe(413);
    expect(clientErrorStatus({ code: 'HPE_INVALID_HEADER_TOKEN' })).toBe(400);
    expect(clientErrorStatus({ code: 'HPE_INVALID_CHUNK_SIZE' })).toBe(400);
    expect(clientErrorStatus({})).toBe(400);
  });

  it('answers a header overflow caused by the request line alone as a URL too long', () => {
    const longLine = packet(`GET /api/v1/${'a'.repeat(100)} HTTP/1.1\r\nHost: x\r\n`);
    expect(clientErrorStatus({ code: 'HPE_HEADER_OVERFLOW', rawPacket: longLine }, 100)).toBe(414);
    expect(clientErrorStatus({ code: 'HPE_HEADER_OVERFLOW', rawPacket: packet(`\r\nGET /${'a'.repeat(200)}`) }, 100)).toBe(414);
    const longHeader = packet(`GET /api/v1/list_ext_out HTTP/1.1\r\nX-Padding: ${'a'.repeat(100)}\r\n`);
    expect(clientErrorStatus({ code: 'HPE_HEADER_OVERFLOW', rawPacket: longHeader }, 100)).toBe(431);
    expect(clientErrorStatus({ code: 'HPE_HEADER_OVERFLOW', rawPacket: packet(`X-Padding: ${'a'.repeat(200)}`) }, 100)).toBe(431);
    expect(clientErrorStatus({ code: 'HPE_HEADER_OVERFLOW' }, 100)).toBe(431);
  });
});

describe('requestTargetOf', () => {
  it('reads the target of a request line at the start of the packet, even a cut-off one', () => {
    expect(requestTargetOf(packet('GET /api/v1/list_ext_out HTTP/1.1\r\nHost: x\r\n'))).toBe('/api/v1/list_ext_out');
    expect(requestTargetOf(packet('\r\nPOST /api/x402/v1/detect-file-type HTTP/1.1\r\n'))).toBe('/api/x402/v1/detect-file-type');
    expect(requestTargetOf(packet(`GET /api/v1/${'a'.repeat(5000)}`))).toMatch(/^\/api\/v1\/a+$/);
  });

  it('reads nothing from a packet that does not start with a request line, or no packet', () => {
    expect(requestTargetOf(packet('X-Padding: aaaa\r\nHost: x\r\n\r\n'))).toBeUndefined();
    expect(requestTargetOf(packet('zz\r\nhello\r\n0\r\n\r\n'))).toBeUndefined();
    expect(requestTargetOf(undefined)).toBeUndefined();
    expect(requestTargetOf({ type: 'Buffer', data: [71, 69, 84] })).toBeUndefined();
  });
});

describe('clientErrorResponse', () => {
  it('is a complete HTTP response in the key API shape for a key API request line, quoting nothing of it', () => {
    const raw = packet('GET /%61pi/v1/list_ext_out?secret=s3cr3t HTTP/1.1\r\nApi-Key: fs_live_s3cr3t\r\nBad Header\r\n\r\n');
    const response = clientErrorResponse({ code: 'HPE_INVALID_HEADER_TOKEN', rawPacket: raw }, 'req-1');
    const { statusLine, headers, body, json } = parse(response);
    expect(statusLine).toBe('HTTP/1.1 400 Bad Request');
    expect(headers).toEqual({
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(Buffer.byteLength(body)),
      connection: 'close',
      'x-request-id': 'req-1',
    });
    expect(json).toEqual({ Status: 'Error', Message: 'The request is malformed.' });
    expect(response).not.toMatch(/s3cr3t|list_ext_out|%61pi/);
  });

  it('answers the ErrorResponse shape for the x402 API, and when the request line cannot be read', () => {
    const x402 = parse(clientErrorResponse({ code: 'HPE_HEADER_OVERFLOW', rawPacket: packet('GET /api/x402/v1/health HTTP/1.1\r\nX-Big: aaaa') }, 'r'));
    expect(x402.statusLine).toBe('HTTP/1.1 431 Request Header Fields Too Large');
    expect(x402.json).toEqual({ error: { code: 'headers_too_large', message: 'The request headers are larger than this server accepts.' } });
    const unknown = parse(clientErrorResponse({ code: 'ERR_HTTP_REQUEST_TIMEOUT' }, 'r'));
    expect(unknown.statusLine).toBe('HTTP/1.1 408 Request Timeout');
    expect(unknown.json).toEqual({ error: { code: 'request_timeout', message: 'The request did not arrive in time.' } });
  });
});
