import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RawAnswer, rawRequest } from './support/raw-http.js';
import { startTestApp, type TestApp } from './support/test-app.js';

type Api = 'x402' | 'key';

const X402_PATH = '/api/x402/v1/detect-file-type';
const KEY_PATH = '/api/v1/list_ext_out';
/** Travels in a header of some requests; no answer may carry it back. */
const SECRET = 'hdr-s3cr3t-value';

/** A request as a client would never send it: `head` is the request line and headers, CRLF-terminated lines. */
const request = (head: string, body = '') => `${head}\r\n${body}`;
const get = (target: string, headers = '') => request(`GET ${target} HTTP/1.1\r\nHost: x\r\n${headers}Connection: close\r\n`);
const postJson = (target: string, json: string) =>
  request(`POST ${target} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${json.length}\r\nConnection: close\r\n`, json);

/** Waits out the end of the current minute when it is close, so a count cannot straddle two windows. */
async function startOfAFreshMinute(): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < 10_000) await new Promise((resolve) => setTimeout(resolve, left + 200));
}

/**
 * An error answer in the documented shape of `api` and nothing more: JSON, a request id, exactly the
 * shape's keys, and none of `echoes` (parts of the request) anywhere in it, headers included.
 */
function expectErrorAnswer(answer: RawAnswer, status: number, api: Api, code: string, echoes: string[]): void {
  expect(answer.status).toBe(status);
  expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(Number(answer.headers['content-length'])).toBe(Buffer.byteLength(answer.body));
  expect(answer.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  const body = JSON.parse(answer.body) as unknown;
  if (api === 'key') expect(body).toStrictEqual({ Status: 'Error', Message: expect.stringMatching(/\S/) });
  else expect(body).toStrictEqual({ error: { code, message: expect.stringMatching(/\S/) } });
  for (const echo of echoes) expect(answer.raw).not.toContain(echo);
}

describe('hostile HTTP: errors raised before the app answer in the shape of the request\'s API', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await startTestApp({ ROLE: 'api' });
    port = Number(new URL(t.baseUrl).port);
  });
  afterAll(async () => t?.close());

  describe.each([
    { api: 'x402' as const, path: X402_PATH, pathEcho: 'detect-file-type' },
    { api: 'key' as const, path: KEY_PATH, pathEcho: 'list_ext_out' },
  ])('socket-level errors on the $api API (Node cannot parse the request)', ({ api, path, pathEcho }) => {
    it('a malformed header line: 400', async () => {
      const answer = await rawRequest(port, request(`POST ${path} HTTP/1.1\r\nHost: x\r\nX-Token: ${SECRET}\r\nBad Header Line\r\n`));
      expectErrorAnswer(answer, 400, api, 'bad_request', [pathEcho, SECRET, 'Bad Header']);
      expect(answer.headers.connection).toBe('close');
    });

    it('a malformed request line: 400', async () => {
      const answer = await rawRequest(port, request(`POST ${path} XTTP/1.1\r\nHost: x\r\n`));
      expectErrorAnswer(answer, 400, api, 'bad_request', [pathEcho, 'XTTP']);
    });

    it('an invalid chunked body: 400', async () => {
      const head = `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n`;
      const answer = await rawRequest(port, request(head, 'zz\r\n{"ext_in":"png"}\r\n0\r\n\r\n'));
      expectErrorAnswer(answer, 400, api, 'bad_request', [pathEcho, 'ext_in', 'zz']);
    });

    it('headers over Node\'s 16 KiB: 431', async () => {
      const padding = `${SECRET}${'a'.repeat(17_000)}`;
      const answer = await rawRequest(port, get(path, `X-Padding: ${padding}\r\n`));
      expectErrorAnswer(answer, 431, api, 'headers_too_large', [pathEcho, SECRET, 'aaaaaaaa']);
    });

    it('a request line over Node\'s 16 KiB: 414', async () => {
      const answer = await rawRequest(port, get(`${path}/${'b'.repeat(17_000)}`));
      expectErrorAnswer(answer, 414, api, 'uri_too_long', [pathEcho, 'bbbbbbbb']);
    });
  });

  it('answers bytes that name no request line in the x402 ErrorResponse shape', async () => {
    const answer = await rawRequest(port, '\x01\x02 not http at all\r\n\r\n');
    expectErrorAnswer(answer, 400, 'x402', 'bad_request', ['not http']);
  });

  describe('router errors (Fastify answers before any hook)', () => {
    it('a job id over the router\'s parameter limit: 414 in the x402 shape, the URL nowhere', async () => {
      const jobId = `job_${'A'.repeat(300)}`;
      const answer = await rawRequest(port, get(`/api/x402/v1/convert-file/${jobId}/status`, `X-Token: ${SECRET}\r\n`));
      expectErrorAnswer(answer, 414, 'x402', 'uri_too_long', ['AAAAAAAA', 'convert-file', SECRET]);
    });

    it('a download name over the router\'s parameter limit under /tmp: 414 in the key API shape', async () => {
      const answer = await rawRequest(port, get(`/tmp/${'c'.repeat(300)}.png`));
      expectErrorAnswer(answer, 414, 'key', 'uri_too_long', ['cccccccc', '/tmp']);
    });

    it.each([
      { api: 'x402' as const, target: '/api/x402/v1/%E0%A4%A' },
      { api: 'x402' as const, target: '/api/x402/v%31/convert-file/%E0%A4%A/status' },
      { api: 'key' as const, target: '/api/v1/%E0%A4%A' },
      { api: 'key' as const, target: '/%61pi/v1/%E0%A4%A' },
    ])('a malformed percent-escape ($target): 400 in the $api shape', async ({ api, target }) => {
      const answer = await rawRequest(port, get(target));
      expectErrorAnswer(answer, 400, api, 'bad_request', ['%E0', '%A4']);
    });
  });

  describe('encoded spellings of a path take the shape of the API the router routes them to', () => {
    it('a key API route reached through /%61pi/v%31/… fails in the key API shape', async () => {
      const answer = await rawRequest(port, postJson('/%61pi/v%31/list_ext_out', '{}'));
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.body)).toStrictEqual({ Status: 'Error', Message: expect.stringContaining('ext_in') });
    });

    it('the key API\'s door stands on its routes, so an encoded path meets it too: an unknown key is 401', async () => {
      const json = '{"ext_in":"png"}';
      const head = `POST /%61pi/v%31/list_ext_out HTTP/1.1\r\nHost: x\r\nApi-Key: ${SECRET}\r\nContent-Type: application/json\r\nContent-Length: ${json.length}\r\nConnection: close\r\n`;
      const answer = await rawRequest(port, request(head, json));
      expectErrorAnswer(answer, 401, 'key', 'unauthorized', [SECRET, '%61pi']);
    });

    it('an unknown path under an encoded key API prefix is a 404 in the key API shape', async () => {
      const answer = await rawRequest(port, get('/api/v%31/no-such-operation'));
      expect(answer.status).toBe(404);
      expect(JSON.parse(answer.body)).toStrictEqual({ Status: 'Error', Message: 'No such resource.' });
    });

    it('paths are case-sensitive: /API/… matches no route of either API, a 404 in the ErrorResponse shape', async () => {
      for (const target of ['/API/v1/list_ext_out', '/API/x402/v1/health', '/Tmp/x.png']) {
        const answer = await rawRequest(port, get(target));
        expect(answer.status).toBe(404);
        expect(JSON.parse(answer.body)).toStrictEqual({ error: { code: 'not_found', message: 'No such resource.' } });
      }
    });
  });
});

describe('hostile HTTP: the limits count a route whatever the spelling of its path', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await startTestApp({ ROLE: 'api', X402_RATE_LIMIT_PER_MINUTE: '3', KEY_API_ANONYMOUS_REQUESTS_PER_MINUTE: '3' });
    port = Number(new URL(t.baseUrl).port);
  });
  afterAll(async () => t?.close());

  it('counts /api/x402/v%31/… and /%61pi/x402/v1/… with the plain path: the 4th request is 429 whichever spelling', async () => {
    const spellings = [X402_PATH, '/api/x402/v%31/detect-file-type', '/%61pi/x402/v1/detect-file-type'];
    await startOfAFreshMinute();
    // Each spelling once (invalid bodies, 422: counted before validation), then each again over the limit.
    for (const target of spellings) expect((await rawRequest(port, postJson(target, '{}'))).status).toBe(422);
    for (const target of spellings) {
      const answer = await rawRequest(port, postJson(target, '{}'));
      expectErrorAnswer(answer, 429, 'x402', 'rate_limited', ['v%31', '%61pi']);
      expect(Number(answer.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    }
    // Health stays exempt under any spelling: the exemption is by route too.
    expect((await rawRequest(port, get('/api/x402/v%31/health'))).status).toBe(200);
    expect((await rawRequest(port, get('/%61pi/x402/v1/health/ready'))).status).not.toBe(429);
  });

  it('counts /api/v%31/… and /%61pi/v1/… of the key API with the plain path, and answers 429 in its shape', async () => {
    const spellings = [KEY_PATH, '/api/v%31/list_ext_out', '/%61pi/v1/list_ext_out'];
    await startOfAFreshMinute();
    for (const target of spellings) expect((await rawRequest(port, postJson(target, '{"ext_in":"png"}'))).status).toBe(200);
    for (const target of spellings) {
      const answer = await rawRequest(port, postJson(target, '{"ext_in":"png"}'));
      expectErrorAnswer(answer, 429, 'key', 'rate_limited', ['v%31', '%61pi']);
      expect(answer.headers['ratelimit-remaining']).toBe('0');
      expect(Number(answer.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    }
  });
});
