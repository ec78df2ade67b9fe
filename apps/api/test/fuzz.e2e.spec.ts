import { randomBytes } from 'node:crypto';
import { DevChain } from '@fileshift/devchain';
import type { PaymentPayload, PaymentRequired, PaymentRequirements } from '@x402/core/types';
import fc from 'fast-check';
import sharp from 'sharp';
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeysRepository } from '../src/api-keys/api-keys.repository.js';
import { type FuzzAnswer, type FuzzRequest, FuzzTally, ROUTE_GROUPS, UnsendableRequest, checkAnswer, fuzzClient, isAccepted, routeGroupOf } from './support/fuzz-http.js';
import {
  OVERSIZED_JSON_BYTES,
  type MultipartPart,
  acceptHeader,
  anyText,
  apiKeyHeader,
  boundary,
  brokenPartHead,
  contentTypeFor,
  idSegment,
  idempotencyKey,
  jsonBody,
  jsonContentTypes,
  keyDetectBody,
  latin1,
  multipartBody,
  multipartContentType,
  printable,
  query,
  strayHeaders,
  urlSafe,
  withoutControlCharacters,
} from './support/fuzz-inputs.js';
import { rawRequest } from './support/raw-http.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { decodeBase64Json, encodeBase64Json, payingFetch, signedPayment } from './support/x402-payer.js';

/**
 * Property-based fuzzing of both HTTP APIs through the real service (PostgreSQL, Redis, workers, dev
 * chain): whatever arrives — any route, method, id, body, content type, header or payment header —
 * the answer is never a 5xx, an error is in the documented shape of its API, and nothing in it shows
 * a stack trace or a path of the machine. About 2,400 requests; about 25 s on two cores.
 *
 * A failure prints its seed and path; `FUZZ_SEED=<seed> npx vitest run test/fuzz.e2e.spec.ts`
 * replays it (FUZZ_SCALE=<factor> runs more or fewer samples; FUZZ_PATH=<path> with `-t <property>` replays
 * one sample).
 */
const SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const SCALE = Number(process.env.FUZZ_SCALE ?? 1);
/** With `-t <property>`: replays the one sample of a failure's `path`. */
const REPLAY_PATH = process.env.FUZZ_PATH;
const runs = (n: number) => Math.max(1, Math.round(n * SCALE));

const weighted = <T>(...entries: Array<[number, fc.Arbitrary<T>]>) => fc.oneof(...entries.map(([weight, arbitrary]) => ({ weight, arbitrary })));
const hex = (bytes: number) => `0x${randomBytes(bytes).toString('hex')}`;
const ERC6492_SUFFIX = '6492649264926492649264926492649264926492649264926492649264926492';
const SOLANA_MAINNET = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp';

/** The routes without a path parameter. */
const FIXED_PATHS = [
  '/api/x402/v1/detect-file-type', '/api/x402/v1/convert-file', '/api/x402/v1/health', '/api/x402/v1/health/ready', '/api/x402/v1', '/api/x402/v1/',
  '/api/x402/v1/formats', '/openapi.json', '/openapi.yaml', '/llms.txt', '/.well-known/x402.json', '/.well-known/did.json',
  '/api/v1/upload', '/api/v1/convert', '/api/v1/list_ext_out', '/api/v1/list_ext_out_by_type', '/api/v1/detect_file_type',
];

/** First bytes of formats the detector knows, followed by random bytes in the detection property. */
const MAGIC_PREFIXES = ['\x89PNG\r\n\x1a\n', 'GIF89a', '\xff\xd8\xff\xe0', '%PDF-1.7\n', 'PK\x03\x04', 'ID3\x04\x00', 'RIFF\x00\x00\x00\x00WEBP', 'OggS', '\x1aE\xdf\xa3', '\x00\x00\x00\x18ftypmp42', '{"a":', '<svg ', '<?xml ', '\xef\xbb\xbf', '\xff\xfe'];

/** The least share of each property's requests the service must accept (see the summary). */
const MIN_ACCEPTED_SHARE: Record<string, number> = {
  routes: 0.04,
  'x402 detect bodies': 0.1,
  'x402 convert bodies': 0.1,
  'key JSON bodies': 0.15,
  'key upload bodies': 0.15,
  'key detect bodies': 0.2,
  headers: 0.12,
  'paid detections': 0.9,
  'paid conversions': 0.5,
  'key round trips': 0.5,
  'concurrent duplicates': 0.5,
};

interface StatusBody {
  status: string;
  result_url?: string;
}

describe('fuzz: both APIs answer any input with a 4xx in their documented shape, never a 5xx or a leak', () => {
  let chain: DevChain;
  let t: TestApp;
  let client: ReturnType<typeof fuzzClient>;
  const tally = new FuzzTally();
  const started = Date.now();
  let png: Buffer;
  /** Files for the end-to-end properties: real images, and broken ones that still start like an image. */
  const samples: Record<string, Buffer> = {};
  let apiKey: string;
  let payer: PrivateKeyAccount;
  /** Ids and names the service knows, so the fuzzer reaches past the "not found" answers. */
  const known = { victimJob: '', unpaidJob: '', boughtJob: '', downloadName: '', keyUpload: '', tmpName: '' };
  const challenges = {} as Record<PaidRoute, PaymentRequired>;

  type PaidRoute = 'detect' | 'convert' | 'result';

  let lastRequest: FuzzRequest | undefined;
  /** Sends, counts and checks one request; the answer for further checks. Unsendable samples are skipped. */
  async function exchange(property: string, request: FuzzRequest): Promise<FuzzAnswer> {
    let answer: FuzzAnswer;
    const previous = lastRequest;
    lastRequest = { method: request.method, path: request.path, headers: request.headers };
    try {
      answer = await client.send(request);
    } catch (error) {
      if (error instanceof UnsendableRequest) {
        tally.skip(`${error.message.replace(/"[^"]*"/g, '…').slice(0, 60)} (${JSON.stringify(request.path).slice(0, 80)})`);
        fc.pre(false);
      }
      throw new Error(`no answer to ${request.method} ${JSON.stringify(request.path).slice(0, 200)} ${JSON.stringify(request.headers ?? {}).slice(0, 800)}: ${String(error)}; previous request ${JSON.stringify(previous).slice(0, 800)}`);
    }
    tally.record(property, routeGroupOf(request.method, request.path), answer.status, isAccepted(request, answer.status));
    checkAnswer(request, answer, [t.config.dataDir]);
    return answer;
  }

  /** `examples` run first, in every run: cases the property must get right whatever the seed draws. */
  const assertProperty = <T>(arbitrary: fc.Arbitrary<T>, numRuns: number, predicate: (value: T) => Promise<void>, examples: T[] = []) =>
    fc.assert(fc.asyncProperty(arbitrary, predicate), { numRuns: runs(numRuns), seed: SEED, verbose: 1, maxSkipsPerRun: 10, ...(REPLAY_PATH ? { path: REPLAY_PATH } : { examples: examples.map((example): [T] => [example]) }) });

  // --- well-formed requests of each route, which the properties then bend -----------------------

  const detectJson = () => ({ filename: 'photo.png', size_bytes: png.length, header_first_200_bytes_base64: png.subarray(0, 200).toString('base64') });
  const formParts = (fields: Record<string, string>, file: Buffer, fileName = 'photo.png'): MultipartPart[] => [
    ...Object.entries(fields).map(([name, value]) => ({ name, content: Buffer.from(value) })),
    { name: 'file', filename: fileName, contentType: 'application/octet-stream', content: file },
  ];
  const convertFields = () => ({ target_format: 'webp', filename: 'photo.png', created_at: '2026-11-01T10:00:00Z', size_bytes: String(png.length) });
  const form = (parts: MultipartPart[], headers: Record<string, string | string[]> = {}) => {
    const b = `fuzz${randomBytes(8).toString('hex')}`;
    return { body: multipartBody({ boundary: b, parts }), headers: { 'content-type': `multipart/form-data; boundary=${b}`, ...headers } };
  };

  const keyDetect = (...segments: Array<string | Buffer>) => Buffer.concat(segments.flatMap((segment, i) => [...(i > 0 ? [Buffer.from([0xfe])] : []), Buffer.from(segment)]));

  /** A valid request of each paid route, carrying `headers` (the payment). */
  function paidRequest(route: PaidRoute, headers: Record<string, string | string[]> = {}): FuzzRequest {
    if (route === 'detect') return { method: 'POST', path: '/api/x402/v1/detect-file-type', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(detectJson()) };
    if (route === 'convert') return { method: 'POST', path: '/api/x402/v1/convert-file', ...form(formParts(convertFields(), png), headers) };
    return { method: 'GET', path: `/api/x402/v1/convert-file/${known.unpaidJob}/result`, headers };
  }

  /** A well-formed request of every route (the bought result, a job that may be deleted), for the header property. */
  function baseRequests(): FuzzRequest[] {
    const key = (path: string, body: unknown): FuzzRequest => ({ method: 'POST', path, headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(body) });
    return [
      paidRequest('detect'),
      paidRequest('convert'),
      paidRequest('result'),
      { method: 'GET', path: `/api/x402/v1/convert-file/${known.victimJob}/status` },
      { method: 'GET', path: `/api/x402/v1/convert-file/${known.boughtJob}/result` },
      { method: 'DELETE', path: `/api/x402/v1/convert-file/job_${'A'.repeat(32)}/delete` },
      { method: 'GET', path: `/api/x402/v1/download/${known.downloadName}` },
      { method: 'GET', path: '/api/x402/v1/health' },
      { method: 'GET', path: '/api/x402/v1/health/ready' },
      { method: 'GET', path: '/api/x402/v1' },
      { method: 'GET', path: '/openapi.json' },
      { method: 'GET', path: '/openapi.yaml' },
      { method: 'GET', path: '/llms.txt' },
      { method: 'GET', path: '/.well-known/x402.json' },
      { method: 'GET', path: '/.well-known/did.json' },
      { method: 'POST', path: '/api/v1/upload', ...form([{ name: 'file', filename: 'photo.png', contentType: 'image/png', content: png }]) },
      key('/api/v1/convert', { filename: known.keyUpload, ext_in: 'png', ext_out: 'webp' }),
      key('/api/v1/list_ext_out', { ext_in: 'png' }),
      key('/api/v1/list_ext_out_by_type', { ext_in: 'png' }),
      { method: 'POST', path: '/api/v1/detect_file_type', headers: { 'content-type': 'application/octet-stream' }, body: keyDetect('png', png.length.toString(16), 'image/png', 'photo.png', png.subarray(0, 200)) },
      { method: 'GET', path: `/tmp/${known.tmpName}` },
    ];
  }

  async function waitForEnd(jobId: string): Promise<StatusBody> {
    for (let i = 0; i < 300; i++) {
      const body = (await (await fetch(`${t.baseUrl}/api/x402/v1/convert-file/${jobId}/status`)).json()) as StatusBody;
      if (body.status === 'done' || body.status === 'failed') return body;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`job ${jobId} did not finish`);
  }

  async function challengeOf(route: PaidRoute): Promise<PaymentRequired> {
    const request = paidRequest(route);
    const answer = await client.send(request);
    expect(answer.status, `${route} unpaid`).toBe(402);
    return decodeBase64Json<PaymentRequired>(answer.headers['payment-required'] as string);
  }

  beforeAll(async () => {
    console.log(`fuzz seed ${SEED} (replay: FUZZ_SEED=${SEED})`);
    chain = await DevChain.start();
    t = await startTestApp({
      DEVCHAIN_RPC_URL: chain.rpcUrl,
      X402_RATE_LIMIT_PER_MINUTE: '100000',
      KEY_API_ANONYMOUS_REQUESTS_PER_MINUTE: '100000',
      KEY_API_ANONYMOUS_DAILY_QUOTA: '100000',
    });
    client = fuzzClient(t.baseUrl);
    png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#00ff00' } }).png().toBuffer();
    const image = sharp({ create: { width: 17, height: 5, channels: 4, background: '#33669980' } });
    Object.assign(samples, {
      png,
      jpg: await image.clone().jpeg().toBuffer(),
      gif: await image.clone().gif().toBuffer(),
      webp: await image.clone().webp().toBuffer(),
      'truncated png': png.subarray(0, 40),
      'damaged png': Buffer.concat([png.subarray(0, 33), randomBytes(64)]),
      'trailing-garbage png': Buffer.concat([png, randomBytes(200)]),
    });
    apiKey = (await t.app.get(ApiKeysRepository).create('fuzz', { requestsPerMinute: 100_000, dailyQuota: 100_000, maxUploadBytes: 41_943_040 })).secret;
    payer = privateKeyToAccount(chain.payerPrivateKeys[3]!);

    // Three paid jobs: one stays unpaid-for (result challenges), one is bought (downloads), one may be deleted.
    const pay = payingFetch(chain, privateKeyToAccount(chain.payerPrivateKeys[0]!));
    const jobs: string[] = [];
    for (let i = 0; i < 3; i++) {
      const body = new FormData();
      for (const [name, value] of Object.entries(convertFields())) body.append(name, value);
      body.append('file', new Blob([png]), 'photo.png');
      const response = await pay(`${t.baseUrl}/api/x402/v1/convert-file`, { method: 'POST', body });
      expect(response.status).toBe(202);
      jobs.push(((await response.json()) as { job_id: string }).job_id);
    }
    [known.unpaidJob, known.boughtJob, known.victimJob] = jobs as [string, string, string];
    for (const job of jobs) expect((await waitForEnd(job)).status).toBe('done');
    const bought = await pay(`${t.baseUrl}/api/x402/v1/convert-file/${known.boughtJob}/result`);
    expect(bought.status).toBe(200);
    known.downloadName = new URL(((await bought.json()) as { download_url: string }).download_url).pathname.split('/').pop()!;

    const upload = new FormData();
    upload.append('file', new Blob([png]), 'photo.png');
    known.keyUpload = ((await (await fetch(`${t.baseUrl}/api/v1/upload`, { method: 'POST', body: upload })).json()) as { Filename: string }).Filename;
    const converted = await fetch(`${t.baseUrl}/api/v1/convert`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ filename: known.keyUpload, ext_in: 'png', ext_out: 'webp' }) });
    expect(converted.status).toBe(200);
    known.tmpName = ((await converted.json()) as { file: { urls: string[] } }).file.urls[0]!.slice('/tmp/'.length);

    for (const route of ['detect', 'convert', 'result'] as const) challenges[route] = await challengeOf(route);
  }, 120_000);

  afterAll(async () => {
    client?.close();
    await t?.close();
    await chain?.stop();
  });

  it('covers every route of the OpenAPI document', async () => {
    const document = (await (await fetch(`${t.baseUrl}/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const method of Object.keys(operations)) {
        const sample = path.replace(/\{[^}]+\}/g, 'x');
        expect(routeGroupOf(method.toUpperCase(), sample), `${method} ${path}`).not.toMatch(/^other/);
      }
    }
  });

  // --- regressions: what the fuzzer found, shrunk to one request each -------------------------------

  it('regression: an Expect header other than 100-continue is 417 in the shape of the path\'s API, not Node\'s empty 417', async () => {
    const x402 = await exchange('regressions', { ...paidRequest('detect'), headers: { 'content-type': 'application/json', expect: 'nothing' } });
    expect(x402.status).toBe(417);
    expect(JSON.parse(x402.body.toString())).toEqual({ error: { code: 'expectation_failed', message: expect.stringMatching(/100-continue/) } });
    expect(x402.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const key = await exchange('regressions', { method: 'POST', path: '/api/v1/list_ext_out', headers: { 'content-type': 'application/json', expect: '200-ok' }, body: '{"ext_in":"png"}' });
    expect(key.status).toBe(417);
    expect(JSON.parse(key.body.toString())).toEqual({ Status: 'Error', Message: expect.stringMatching(/100-continue/) });
    // The connection goes on: the next request on it is answered as usual.
    expect((await exchange('regressions', { method: 'POST', path: '/api/v1/list_ext_out', headers: { 'content-type': 'application/json' }, body: '{"ext_in":"png"}' })).status).toBe(200);
  });

  it('regression: a malformed request behind one still being answered on the same connection gets its 400 after that answer, not instead of it', async () => {
    // The fuzzer's case: a keep-alive download still streaming when the next request (Content-Length: abc) arrived,
    // which got no answer at all. Pipelined, it is deterministic: Node used to answer the first, valid request with the 400.
    const port = Number(new URL(t.baseUrl).port);
    const pipelined = `GET /api/x402/v1/health HTTP/1.1\r\nHost: x\r\n\r\nGET /api/x402/v1/health HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n`;
    const answer = await rawRequest(port, pipelined);
    expect(answer.status, 'the first request gets its own answer').toBe(200);
    const second = answer.raw.slice(answer.raw.indexOf('HTTP/1.1', 1));
    expect(second).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(second).toContain('\r\nContent-Type: application/json; charset=utf-8\r\n');
    expect(JSON.parse(second.slice(second.indexOf('\r\n\r\n') + 4))).toEqual({ error: { code: 'bad_request', message: 'The request is malformed.' } });
  });

  // --- 1. every route, any method, any id --------------------------------------------------------

  it('every route with any method, job id, file name or unknown path', async () => {
    const jobId = idSegment('job_', [known.victimJob]);
    const fileName = (real: string) =>
      weighted<string>([3, idSegment('', [real])], [1, fc.tuple(urlSafe(32, 32), fc.constantFrom('webp', 'png', 'WEBP', 'exe', '', 'webp.png', '../x')).map(([name, ext]) => `${name}.${ext}`)], [1, fc.constant(real.replace(/\.[^.]+$/, '.png'))]);
    const path = weighted<string>(
      [4, fc.tuple(jobId, fc.constantFrom('status', 'result', 'delete', 'status/', 'result/x', '', 'STATUS')).map(([id, action]) => `/api/x402/v1/convert-file/${id}/${action}`)],
      [1, fileName(known.downloadName).map((name) => `/api/x402/v1/download/${name}`)],
      [1, fileName(known.tmpName).map((name) => `/tmp/${name}`)],
      [2, fc.constantFrom(...FIXED_PATHS)],
      [2, fc.constantFrom(
        '/', '/api', '/api/', '/api/v1', '/api/v2/convert', '/API/v1/convert', '/api/V1/convert', '/api/v%31/convert', '/%61pi/x402/v1/health', '//api//v1//list_ext_out',
        '/api/x402/v1/convert-file/x/y/z', '/api/x402/v1/../v1/health', '/api/x402/v1/%2e%2e/%2e%2e/openapi.json', '/tmp', '/tmp/', '/tmp/../etc/passwd', '/tmp/%2e%2e%2fetc%2fpasswd',
        '/tmp/x%00.webp', '/api/x402/v1/download/', '/api/x402/v1/convert-file//status', '/.well-known/', '/.env', '/openapi.json/x', '/api/x402/v1/health/ready/x', '*', '/favicon.ico',
        `/api/x402/v1/${'a'.repeat(2000)}`, `/tmp/${'b'.repeat(120)}.webp`, '/api/v1/upload%00', '/api/v1/upload;jsessionid=1', '/api/v1/upload.json', '/api/x402/v1/convert-file?x=1',
      )],
      [1, fc.array(anyText(12).map((s) => encodeURIComponent(s.replace(/[\ud800-\udfff]/g, ''))), { minLength: 1, maxLength: 6 }).map((segments) => `/${segments.join('/')}`)],
    );
    const method = weighted<string>([6, fc.constant('route')], [2, fc.constantFrom('GET', 'POST', 'DELETE', 'HEAD')], [1, fc.constantFrom('PUT', 'PATCH', 'OPTIONS', 'TRACE', 'PROPFIND', 'SEARCH', 'MKCOL', 'FOO', 'LINK', 'PURGE')]);
    const body = weighted<string | undefined>([3, fc.constant(undefined)], [1, fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v))]);
    await assertProperty(fc.record({ path, query, method, body }), 300, async ({ path: target, query: q, method: m, body: b }) => {
      const fullPath = target === '*' ? target : target + q;
      const route = ROUTE_GROUPS.find((candidate) => candidate.pattern.test(target.split('?')[0]!));
      const chosen = m === 'route' ? (route?.method ?? 'GET') : m;
      const withBody = b !== undefined && chosen !== 'GET' && chosen !== 'HEAD';
      await exchange('routes', { method: chosen, path: fullPath, ...(withBody ? { headers: { 'content-type': 'application/json' }, body: b } : {}) });
    });
  });

  // --- 2. bodies ---------------------------------------------------------------------------------

  it('x402 detect-file-type: any JSON body under any content type', async () => {
    const valid = {
      filename: weighted<string>([4, fc.constantFrom('photo.png', 'a', 'x.pdf', 'noext').map((s) => JSON.stringify(s))], [1, anyText(300).map((s) => JSON.stringify(s))], [1, printable(300, 256).map((s) => JSON.stringify(s))]),
      created_at: weighted<string>([3, fc.constantFrom('2026-11-01T10:00:00Z', '2026-11-01T10:00:00.123+02:00').map((s) => JSON.stringify(s))], [1, fc.date({ noInvalidDate: true }).map((d) => JSON.stringify(d.toISOString()))], [1, anyText(30).map((s) => JSON.stringify(s))]),
      size_bytes: weighted<string>([3, fc.constant(String(png.length))], [2, fc.nat().map(String)], [1, fc.constantFrom('0', '41943040', '9007199254740991', '9007199254740992', '-1', '1.5', '"67"', '1e3')]),
      header_first_200_bytes_base64: weighted<string>(
        [3, fc.constant(JSON.stringify(png.subarray(0, 200).toString('base64')))],
        [2, fc.uint8Array({ maxLength: 260 }).map((b) => JSON.stringify(Buffer.from(b).toString('base64')))],
        [1, fc.uint8Array({ maxLength: 60 }).map((b) => JSON.stringify(Buffer.from(b).toString('base64url')))],
        [1, anyText(50).map((s) => JSON.stringify(s))],
      ),
    };
    const body = weighted<string | Buffer | 'oversized' | 'exact'>([20, fc.constant('exact' as const)], [60, jsonBody(valid)], [1, fc.constant('oversized' as const)]);
    await assertProperty(fc.record({ body, contentType: jsonContentTypes }), 250, async ({ body: b, contentType }) => {
      // Now and then the request exactly as the contract has it: it must be priced.
      if (b === 'exact') return void expect((await exchange('x402 detect bodies', paidRequest('detect'))).status).toBe(402);
      const payload = b === 'oversized' ? JSON.stringify({ filename: 'x'.repeat(OVERSIZED_JSON_BYTES), size_bytes: 1, header_first_200_bytes_base64: '' }) : b;
      await exchange('x402 detect bodies', { method: 'POST', path: '/api/x402/v1/detect-file-type', headers: contentType === undefined ? {} : { 'content-type': contentType }, body: payload });
    });
  });

  /** The parts of a convert-file or upload request: mostly the expected ones with near-valid values, plus strays. */
  function multipartRequest(fieldValues: Record<string, fc.Arbitrary<string>>, fileName: fc.Arbitrary<string>) {
    const file = weighted<Buffer>(
      [4, fc.constant(null).map(() => png)],
      [2, fc.uint8Array({ maxLength: 3000 }).map((b) => Buffer.from(b))],
      [1, fc.constant(Buffer.alloc(0))],
      [1, fc.nat().map((n) => png.subarray(0, n % png.length))],
      [1, fc.constantFrom('%PDF-1.7\n', 'GIF89a', '\x89PNG\r\n\x1a\n', 'ID3\x04', '<svg xmlns="http://www.w3.org/2000/svg"/>', 'PK\x03\x04').map((s) => Buffer.from(s, 'latin1'))],
    );
    const fieldParts = Object.entries(fieldValues).map(([name, value]) =>
      weighted<MultipartPart[]>(
        [8, value.map((v) => [{ name, content: Buffer.from(v) }])],
        [1, fc.constant([])],
        [1, fc.tuple(value, value).map(([a, b]) => [{ name, content: Buffer.from(a) }, { name, content: Buffer.from(b) }])],
        [1, value.map((v) => [{ name, filename: 'field.txt', contentType: 'text/plain', content: Buffer.from(v) }])],
        [1, fc.constant([{ name, content: Buffer.alloc(5000, 'x') }])],
      ),
    );
    const fileParts = weighted<MultipartPart[]>(
      [8, fc.record({ content: file, filename: fileName, contentType: fc.constantFrom('application/octet-stream', 'image/png', 'text/plain', '', 'x/y; a=b') }).map((part) => [{ name: 'file', ...part }])],
      [1, fc.constant([])],
      [1, fc.tuple(file, file).map(([a, b]) => [{ name: 'file', filename: 'a.png', content: a }, { name: 'file', filename: 'b.png', content: b }])],
      [1, file.map((content) => [{ name: 'file', content }])],
    );
    const strays = weighted<MultipartPart[]>(
      [6, fc.constant([])],
      [2, fc.array(fc.record({ name: anyText(20).map((s) => s.replace(/["\r\n]/g, '')), content: fc.uint8Array({ maxLength: 100 }).map((b) => Buffer.from(b)) }), { maxLength: 15 })],
      [1, fc.tuple(brokenPartHead, fc.uint8Array({ maxLength: 100 })).map(([rawHead, content]) => [{ name: '', rawHead, content: Buffer.from(content) }])],
    );
    return fc
      .record({
        fields: fc.tuple(...fieldParts),
        fileParts,
        strays,
        order: fc.nat(),
        boundary,
        truncateAt: weighted<number | undefined>([8, fc.constant(undefined)], [1, fc.nat()]),
        noClosingBoundary: weighted<boolean>([10, fc.constant(false)], [1, fc.constant(true)]),
        preamble: weighted<string>([10, fc.constant('')], [1, anyText(40)]),
        lineBreak: weighted<'\r\n' | '\n'>([10, fc.constant('\r\n' as const)], [1, fc.constant('\n' as const)]),
      })
      .chain((shape) => multipartContentType(shape.boundary).map((contentType) => ({ ...shape, contentType })))
      .map(({ fields, fileParts: files, strays: extra, order, contentType, ...shape }) => {
        const parts = [...fields.flat(), ...files, ...extra];
        // Rotate the parts: the file before or after its fields.
        const at = order % (parts.length + 1);
        return { body: multipartBody({ ...shape, parts: [...parts.slice(at), ...parts.slice(0, at)] }), contentType };
      });
  }

  it('x402 convert-file: any multipart body, fields and Idempotency-Key', async () => {
    const fields = {
      target_format: weighted<string>([4, fc.constantFrom('webp', 'png', 'jpg', 'gif', 'avif', 'tiff')], [1, fc.constantFrom('mp3', 'pdf', 'docx', 'WEBP', '.webp', '', 'x'.repeat(21), 'exe')], [1, anyText(25)]),
      filename: weighted<string>([4, fc.constantFrom('photo.png', 'photo', 'photo.gif', 'a.webp')], [1, anyText(60)], [1, fc.constantFrom('../../../etc/passwd', 'C:\\boot.ini', 'x'.repeat(300), '', '.', 'a\u0000.png')]),
      created_at: weighted<string>([4, fc.constant('2026-11-01T10:00:00Z')], [1, fc.date({ noInvalidDate: true }).map((d) => d.toISOString())], [1, anyText(30)]),
      size_bytes: weighted<string>([4, fc.constant(String(png.length))], [1, fc.integer({ min: -10, max: 50_000_000 }).map(String)], [1, fc.constantFrom('0', '1e3', '0x10', ' 67', '67.0', 'NaN', '41943041', '')]),
    };
    const request = fc.record({ form: multipartRequest(fields, weighted<string>([3, fc.constant('photo.png')], [1, anyText(40).map((s) => s.replace(/["\r\n]/g, ''))])), idempotency: idempotencyKey, exact: weighted<boolean>([1, fc.constant(true)], [3, fc.constant(false)]) });
    await assertProperty(request, 250, async ({ form: f, idempotency, exact }) => {
      // Now and then the request exactly as the contract has it: it must be priced.
      if (exact) return void expect((await exchange('x402 convert bodies', paidRequest('convert'))).status).toBe(402);
      const headers: Record<string, string> = {};
      if (f.contentType !== undefined) headers['content-type'] = f.contentType;
      if (idempotency !== undefined) headers['idempotency-key'] = idempotency;
      await exchange('x402 convert bodies', { method: 'POST', path: '/api/x402/v1/convert-file', headers, body: f.body });
    });
  });

  it('key API JSON routes: any JSON body under any content type', async () => {
    const extension = weighted<string>([4, fc.constantFrom('png', 'webp', 'jpg', 'gif', 'pdf', 'mp3', 'txt', '.png', 'PNG').map((s) => JSON.stringify(s))], [1, anyText(25).map((s) => JSON.stringify(s))], [1, urlSafe(1, 30).map((s) => JSON.stringify(s))]);
    const filename = weighted<string>([3, fc.constant(JSON.stringify(known.keyUpload))], [1, urlSafe(32, 32).map((s) => JSON.stringify(`${s}.png`))], [1, anyText(70).map((s) => JSON.stringify(s))], [1, fc.constantFrom('../../etc/passwd', `${known.keyUpload}/../x`, known.keyUpload.toUpperCase()).map((s) => JSON.stringify(s))]);
    const route = fc.constantFrom('convert', 'list_ext_out', 'list_ext_out_by_type');
    const request = route.chain((r) =>
      fc.record({
        route: fc.constant(r),
        body: weighted<string | Buffer | 'oversized' | 'exact'>([20, fc.constant('exact' as const)], [60, jsonBody(r === 'convert' ? { filename, ext_in: extension, ext_out: extension } : { ext_in: extension })], [1, fc.constant('oversized' as const)]),
        contentType: jsonContentTypes,
        accept: acceptHeader,
      }),
    );
    await assertProperty(request, 250, async ({ route: r, body, contentType, accept }) => {
      if (body === 'exact') {
        // The request exactly as the contract has it: it must be answered.
        const exact = { method: 'POST', path: `/api/v1/${r}`, headers: { 'content-type': 'application/json' }, body: JSON.stringify(r === 'convert' ? { filename: known.keyUpload, ext_in: 'png', ext_out: 'webp' } : { ext_in: 'png' }) };
        return void expect((await exchange('key JSON bodies', exact)).status).toBe(200);
      }
      const headers: Record<string, string> = {};
      if (contentType !== undefined) headers['content-type'] = contentType;
      if (accept !== undefined) headers.accept = accept;
      const payload = body === 'oversized' ? JSON.stringify({ ext_in: 'p'.repeat(OVERSIZED_JSON_BYTES) }) : body;
      await exchange('key JSON bodies', { method: 'POST', path: `/api/v1/${r}`, headers, body: payload });
    });
  });

  it('key API upload: any multipart body, and an upload over the no-key limit', async () => {
    const fileName = weighted<string>([3, fc.constantFrom('photo.png', 'photo', 'x.tar.gz', '.png', 'a.PNG')], [1, anyText(60).map((s) => s.replace(/["\r\n]/g, ''))], [1, fc.constantFrom('../../x.png', '/etc/passwd', 'C:\\x\\y.png', 'x'.repeat(400))]);
    const request = weighted<{ body: Buffer; contentType: string | undefined } | 'oversized' | 'exact'>([20, fc.constant('exact' as const)], [60, multipartRequest({}, fileName)], [1, fc.constant('oversized' as const)]);
    await assertProperty(fc.record({ request, apiKey: apiKeyHeader(apiKey) }), 150, async ({ request: r, apiKey: key }) => {
      // Now and then an upload exactly as the contract has it: it must be stored.
      if (r === 'exact') return void expect((await exchange('key upload bodies', { method: 'POST', path: '/api/v1/upload', ...form([{ name: 'file', filename: 'photo.png', contentType: 'image/png', content: png }]) })).status).toBe(200);
      const headers: Record<string, string | string[]> = {};
      if (key !== undefined) headers['api-key'] = key;
      // Over the 5 MB no-key limit: 413, the rest of the body unread.
      const { body, contentType } =
        r === 'oversized' ? { body: multipartBody({ boundary: 'big', parts: [{ name: 'file', filename: 'big.bin', content: Buffer.alloc(5_300_000, 7) }] }), contentType: 'multipart/form-data; boundary=big' } : r;
      if (r === 'oversized') delete headers['api-key'];
      if (contentType !== undefined) headers['content-type'] = contentType;
      await exchange('key upload bodies', { method: 'POST', path: '/api/v1/upload', headers, body });
    });
  });

  it('key API detect_file_type: any binary body, content type and Accept', async () => {
    const body = weighted<Buffer | 'exact'>([5, fc.constant('exact' as const)], [20, keyDetectBody], [1, fc.integer({ min: 4097, max: 20_000 }).map((n) => Buffer.alloc(n, 0xfe))], [1, fc.uint8Array({ maxLength: 400 }).map((b) => Buffer.from(b))]);
    const contentType = contentTypeFor(fc.constant('application/octet-stream'));
    await assertProperty(fc.record({ body, contentType, accept: acceptHeader }), 200, async ({ body: b, contentType: type, accept }) => {
      // Now and then a detection exactly as the contract has it: it must be answered.
      if (b === 'exact') return void expect((await exchange('key detect bodies', baseRequests().find((request) => request.path === '/api/v1/detect_file_type')!)).status).toBe(200);
      const headers: Record<string, string> = {};
      if (type !== undefined) headers['content-type'] = type;
      if (accept !== undefined) headers.accept = accept;
      await exchange('key detect bodies', { method: 'POST', path: '/api/v1/detect_file_type', headers, body: b });
    });
  });

  // --- 3. headers --------------------------------------------------------------------------------

  it('any route with arbitrary Content-Type, Accept, Idempotency-Key, Api-Key and stray headers', async () => {
    const requests = baseRequests();
    const request = fc.record({
      index: fc.nat({ max: requests.length - 1 }),
      contentType: weighted<string | undefined | 'keep'>([3, fc.constant('keep' as const)], [1, contentTypeFor(fc.constant('application/json'))]),
      accept: acceptHeader,
      idempotency: idempotencyKey,
      apiKey: apiKeyHeader(apiKey),
      stray: weighted<Record<string, string>>([1, fc.constant({})], [2, strayHeaders]),
      repeated: weighted<string[]>([4, fc.constant([])], [1, fc.subarray(['content-type', 'accept', 'idempotency-key', 'api-key', 'x-request-id'], { minLength: 1 })]),
    });
    await assertProperty(request, 250, async ({ index, contentType, accept, idempotency, apiKey: key, stray, repeated }) => {
      const base = requests[index]!;
      const headers: Record<string, string | string[]> = { ...(base.headers ?? {}), ...stray };
      if (contentType !== 'keep') {
        delete headers['content-type'];
        if (contentType !== undefined) headers['content-type'] = contentType;
      }
      if (accept !== undefined) headers.accept = accept;
      if (idempotency !== undefined) headers['idempotency-key'] = idempotency;
      if (key !== undefined) headers['api-key'] = key;
      for (const name of repeated) if (typeof headers[name] === 'string') headers[name] = [headers[name] as string, 'second-value'];
      await exchange('headers', { ...base, headers });
    });
  });

  // --- 4. payment headers ------------------------------------------------------------------------

  /** Puts `value` (or values) in PAYMENT-SIGNATURE, X-PAYMENT, both, or the same header twice. */
  const PAYMENT_HEADER_PLACEMENTS = ['payment-signature', 'x-payment', 'both', 'twice', 'signature-blank'] as const;
  type Placement = (typeof PAYMENT_HEADER_PLACEMENTS)[number];
  function paymentHeaders(placement: Placement, value: string, other: string): Record<string, string | string[]> {
    switch (placement) {
      case 'payment-signature':
      case 'x-payment':
        return { [placement]: value };
      case 'both':
        return { 'payment-signature': value, 'x-payment': other };
      case 'twice':
        return { 'payment-signature': [value, other] };
      case 'signature-blank':
        return { 'payment-signature': ' ', 'x-payment': value };
    }
  }

  it('payment headers: random strings and base64 of random JSON, in PAYMENT-SIGNATURE and X-PAYMENT', async () => {
    const value = weighted<string>(
      [2, printable(400)],
      [1, latin1(100)],
      [3, fc.jsonValue({ maxDepth: 4 }).map((v) => encodeBase64Json(v))],
      [1, fc.jsonValue({ maxDepth: 3 }).map((v) => Buffer.from(JSON.stringify(v)).toString('base64url'))],
      [1, fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.from(b).toString('base64'))],
      [1, fc.integer({ min: 65, max: 200 }).map((depth) => encodeBase64Json(JSON.parse(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`)))],
      [1, fc.constantFrom('e30=', 'bnVsbA==', 'W10=', 'MQ==', 'Ig==', '====', '=', 'e30', ' e30= ', 'e30=\t', '%7B%7D', 'eyJ4NDAyVmVyc2lvbiI6Mn0=', 'eyJ4NDAyVmVyc2lvbiI6MX0=')],
      [1, fc.integer({ min: 16_000, max: 16_500 }).map((n) => 'A'.repeat(n))],
    );
    const request = fc.record({ route: fc.constantFrom<PaidRoute>('detect', 'convert', 'result'), placement: fc.constantFrom(...PAYMENT_HEADER_PLACEMENTS), value, other: printable(40) });
    await assertProperty(request, 200, async ({ route, placement, value: v, other }) => {
      const answer = await exchange('payment: random', paidRequest(route, paymentHeaders(placement, v, other)));
      expect([402, 431], `${route} with a random payment header`).toContain(answer.status);
    });
  });

  /** One field of a payment changed: its path in the payload and the JSON that replaces it (undefined deletes it). */
  interface FieldMutation {
    path: string;
    value?: unknown;
  }

  const uintWrong = fc.constantFrom<unknown>('1' + '0'.repeat(80), (2n ** 256n).toString(), (2n ** 256n - 1n).toString(), '-1', -1, 2000, '0x7d0', '1e3', '', ' 2000', '2000.0', '0', '00002000', null);
  const hexWrong = fc.constantFrom<unknown>('0xZZ', '0x123', 'abc', '0x', '0X' + 'ab'.repeat(20), `0x${'0'.repeat(40)}`, `0x${'ab'.repeat(32)}`, `0x${'ab'.repeat(20)}`, `0x${'ab'.repeat(65)}`, 42, null, '');
  const fieldMutation: fc.Arbitrary<FieldMutation> = weighted<FieldMutation>(
    [2, fc.record({ path: fc.constantFrom('x402Version'), value: fc.constantFrom<unknown>(1, 2, 3, '2', 0, -2, 2.5, null, [2], true) })],
    [1, fc.record({ path: fc.constantFrom('accepted.scheme'), value: fc.constantFrom<unknown>('upto', 'EXACT', '', 'exact ', 'batch-settlement', 'x'.repeat(40), 1, null) })],
    [2, fc.record({ path: fc.constantFrom('accepted.network'), value: fc.constantFrom<unknown>('eip155:8453', 'eip155:1', 'eip155:84532', SOLANA_MAINNET, 'EIP155:31337', 'eip155:', 'base', 'eip155:31337:1', 31337, null) })],
    [2, fc.record({ path: fc.constantFrom('accepted.amount', 'payload.authorization.value', 'payload.authorization.validAfter', 'payload.authorization.validBefore'), value: uintWrong })],
    [2, fc.record({ path: fc.constantFrom('accepted.asset', 'accepted.payTo', 'payload.authorization.from', 'payload.authorization.to', 'payload.authorization.nonce', 'payload.signature'), value: hexWrong })],
    [1, fc.record({ path: fc.constantFrom('accepted.maxTimeoutSeconds'), value: fc.constantFrom<unknown>(0, -1, 1e308, '300', 2 ** 53, 0.5) })],
    [1, fc.record({ path: fc.constantFrom('accepted.extra', 'accepted.extra.name', 'accepted.extra.version', 'resource', 'resource.url', 'extensions', 'payload', 'payload.authorization', 'accepted') , value: fc.jsonValue({ maxDepth: 2 }) })],
    [2, fc.record({ path: fc.constantFrom('x402Version', 'accepted', 'accepted.network', 'accepted.amount', 'accepted.asset', 'accepted.payTo', 'payload', 'payload.signature', 'payload.authorization', 'payload.authorization.nonce', 'payload.authorization.from', 'resource') })],
    [1, fc.record({ path: fc.constantFrom('$v1'), value: weighted<unknown>([3, fc.constantFrom('base', 'base-sepolia', 'solana', 'solana-devnet', 'avalanche', 'polygon', 'iotex', 'sei', '31337', 'eip155:31337', 'localhost', 'anvil')], [1, anyText(20)]) })],
    [1, fc.record({ path: fc.constantFrom('$permit2'), value: fc.constantFrom<unknown>('proxy', 'random') })],
    [1, fc.record({ path: fc.constantFrom('$svm'), value: fc.integer({ min: 1, max: 1232 }) })],
    [1, fc.record({ path: fc.constantFrom('$erc6492'), value: fc.integer({ min: 0, max: 600 }) })],
    [1, fc.record({ path: fc.constantFrom('$long-signature'), value: fc.integer({ min: 66, max: 4096 }) })],
    [1, fc.record({ path: fc.constantFrom('$unknown-keys'), value: fc.dictionary(anyText(10), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 5 }) })],
  );

  /** A plausible exact-EVM payment for `accepted` (signed or with a random signature), then `mutation` applied. */
  function mutatedPayment(base: PaymentPayload, accepted: PaymentRequirements, resource: PaymentRequired['resource'], { path, value }: FieldMutation): unknown {
    const payment = structuredClone({ ...base, resource }) as unknown as Record<string, unknown>;
    const now = Math.floor(Date.now() / 1000);
    switch (path) {
      case '$v1':
        return { x402Version: 1, scheme: 'exact', network: value, payload: payment.payload };
      case '$permit2': {
        const spender = value === 'proxy' ? '0x4020615294c913F045dc10f0a5cdEbd86c280001' : hex(20);
        return {
          ...payment,
          payload: {
            signature: hex(65),
            permit2Authorization: { from: payer.address, permitted: { token: accepted.asset, amount: accepted.amount }, spender, nonce: BigInt(hex(16)).toString(), deadline: String(now + 300), witness: { to: accepted.payTo, validAfter: String(now - 600) } },
          },
        };
      }
      case '$svm':
        return { ...payment, accepted: { ...accepted, network: SOLANA_MAINNET, asset: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', payTo: '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin' }, payload: { transaction: randomBytes(value as number).toString('base64') } };
      case '$erc6492':
        return { ...payment, payload: { ...(payment.payload as object), signature: `${hex(value as number)}${ERC6492_SUFFIX}` } };
      case '$long-signature':
        return { ...payment, payload: { ...(payment.payload as object), signature: hex(value as number) } };
      case '$unknown-keys':
        return { ...payment, ...(value as object), accepted: { ...accepted, ...(value as object) } };
    }
    const keys = path.split('.');
    let parent = payment as Record<string, unknown>;
    for (const key of keys.slice(0, -1)) {
      if (typeof parent[key] !== 'object' || parent[key] === null) parent[key] = {};
      parent = parent[key] as Record<string, unknown>;
    }
    const last = keys.at(-1)!;
    if (value === undefined) delete parent[last];
    else parent[last] = value;
    return payment;
  }

  /** A payment with a random 65-byte signature: well-formed, never valid. */
  function unsignedPayment(accepted: PaymentRequirements): PaymentPayload {
    const now = Math.floor(Date.now() / 1000);
    return {
      x402Version: 2,
      accepted,
      payload: { signature: hex(65), authorization: { from: payer.address, to: accepted.payTo, value: accepted.amount, validAfter: String(now - 600), validBefore: String(now + 300), nonce: hex(32) } },
    };
  }

  it('payment headers: the route\'s real challenge answered with one field changed', async () => {
    const request = fc.record({
      route: fc.constantFrom<PaidRoute>('detect', 'convert', 'result'),
      placement: fc.constantFrom(...PAYMENT_HEADER_PLACEMENTS),
      mutation: fieldMutation,
      signed: weighted<boolean>([2, fc.constant(false)], [1, fc.constant(true)]),
    });
    await assertProperty(request, 200, async ({ route, placement, mutation, signed }) => {
      const { accepts, resource } = challenges[route];
      const accepted = accepts[0]!;
      // The result stays unbought: only a random signature there, so no change can turn it into a purchase.
      const base = signed && route !== 'result' ? await signedPayment(payer, accepted) : unsignedPayment(accepted);
      const header = encodeBase64Json(mutatedPayment(base, accepted, resource, mutation));
      const answer = await exchange('payment: one field changed', paidRequest(route, paymentHeaders(placement, header, encodeBase64Json(unsignedPayment(accepted)))));
      if (route === 'result') expect(answer.status, 'the result must stay unbought').toBe(402);
    });
  });

  it('payment headers: signed payments with a changed amount, nonce, validity, recipient or signer', async () => {
    const change = fc.constantFrom(
      'none',
      'replay',
      'signed-value-under',
      'signed-value-over',
      'signed-value-huge',
      'signed-expired',
      'signed-not-yet-valid',
      'signed-far-future',
      'signed-to-other',
      'unfunded-signer',
      'after-signing-value',
      'after-signing-nonce',
      'after-signing-valid-before',
      'after-signing-from',
      'accepted-amount-matches-underpayment',
    );
    const request = fc.record({ route: fc.constantFrom<PaidRoute>('detect', 'detect', 'convert', 'result'), change, placement: fc.constantFrom('payment-signature', 'x-payment') });
    await assertProperty(request, 80, async ({ route, change: c, placement }) => {
      const accepted = challenges[route].accepts[0]!;
      // On the result only changes that cannot pay: it stays unbought for the other properties.
      const harmless = ['none', 'replay', 'signed-value-over', 'signed-far-future'];
      fc.pre(!(route === 'result' && harmless.includes(c)));
      const now = Math.floor(Date.now() / 1000);
      const amount = BigInt(accepted.amount);
      const sign = (overrides: Parameters<typeof signedPayment>[2] = {}, account = payer, requirements = accepted) => signedPayment(account, requirements, overrides);
      let payment: PaymentPayload;
      switch (c) {
        case 'signed-value-under': payment = await sign({ value: String(amount - 1n) }); break;
        case 'signed-value-over': payment = await sign({ value: String(amount + 1n) }); break;
        case 'signed-value-huge': payment = await sign({ value: (2n ** 256n - 1n).toString() }); break;
        case 'signed-expired': payment = await sign({ validBefore: String(now - 10) }); break;
        case 'signed-not-yet-valid': payment = await sign({ validAfter: String(now + 3600) }); break;
        case 'signed-far-future': payment = await sign({ validBefore: String(now + 10 ** 9) }); break;
        case 'signed-to-other': payment = await sign({ to: privateKeyToAccount(generatePrivateKey()).address }); break;
        case 'unfunded-signer': payment = await sign({}, privateKeyToAccount(generatePrivateKey())); break;
        case 'accepted-amount-matches-underpayment': payment = await sign({ value: '1' }, payer, { ...accepted, amount: '1' }); break;
        default: payment = await sign();
      }
      const authorization = (payment.payload as { authorization: Record<string, string> }).authorization;
      if (c === 'after-signing-value') authorization.value = String(amount * 2n);
      if (c === 'after-signing-nonce') authorization.nonce = hex(32);
      if (c === 'after-signing-valid-before') authorization.validBefore = String(now + 299);
      if (c === 'after-signing-from') authorization.from = privateKeyToAccount(chain.payerPrivateKeys[4]!).address;
      const send = () => exchange('payment: signed and changed', paidRequest(route, { [placement]: encodeBase64Json(payment) }));
      const answer = await send();
      if (c === 'none') expect(answer.status, 'a correct payment is accepted').toBeLessThan(300);
      else if (c === 'replay') {
        const again = await send();
        expect(again.status, 'a payment presented twice').toBe(402);
        expect(decodeBase64Json<PaymentRequired>(again.headers['payment-required'] as string).error).toMatch(/payment_already_used/);
      } else if (!['signed-value-over', 'signed-far-future'].includes(c)) expect(answer.status, `${c} must be refused`).toBe(402);
    });
  });

  // --- 5. paid requests with hostile but valid content, end to end --------------------------------

  /** Sends `request`; when challenged, pays the challenge with a fresh signed payment and sends it again. */
  async function paying(property: string, request: FuzzRequest, placement: 'payment-signature' | 'x-payment' = 'payment-signature'): Promise<FuzzAnswer> {
    const unpaid = await exchange(property, request);
    if (unpaid.status !== 402) return unpaid;
    const { accepts } = decodeBase64Json<PaymentRequired>(unpaid.headers['payment-required'] as string);
    const payment = await signedPayment(payer, accepts[0]!);
    return exchange(property, { ...request, headers: { ...(request.headers ?? {}), [placement]: encodeBase64Json(payment) } });
  }

  const json = (answer: FuzzAnswer) => JSON.parse(answer.body.toString('utf8')) as Record<string, unknown>;
  /** A file name a client may send: anything without control characters, 1..255 characters, with or without an extension. */
  const clientFileName = fc
    .tuple(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 250 }), fc.constantFrom('', '.png', '.PNG', '.jpg', '.gif', '.webp', '.txt', '.tar.gz', '.'))
    .map(([stem, ext]) => withoutControlCharacters(`${stem}${ext}`).slice(0, 255) || 'x');
  const isoDate = fc.oneof(
    fc.date({ noInvalidDate: true, min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z') }).map((d) => d.toISOString()),
    fc.constantFrom('0000-01-01T00:00:00Z', '9999-12-31T23:59:59-23:59', '2026-11-01T10:00:00.123456789+05:45', '1970-01-01T00:00:00Z'),
  );

  it('paid detections of any valid request answer the documented six fields', async () => {
    const request = fc.record({
      filename: clientFileName,
      header: weighted<Buffer>([2, fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b))], [2, fc.nat({ max: 200 }).map((n) => png.subarray(0, n))], [2, fc.tuple(fc.constantFrom(...MAGIC_PREFIXES), fc.uint8Array({ maxLength: 150 })).map(([magic, tail]) => Buffer.concat([Buffer.from(magic, 'latin1'), tail]).subarray(0, 200))]),
      extraSize: weighted<number>([3, fc.constant(0)], [1, fc.nat({ max: 50_000_000 })], [1, fc.constantFrom(Number.MAX_SAFE_INTEGER, 41_943_041, 10_485_760)]),
      createdAt: fc.option(isoDate, { nil: undefined }),
      placement: fc.constantFrom('payment-signature' as const, 'x-payment' as const),
    });
    await assertProperty(request, 40, async ({ filename, header, extraSize, createdAt, placement }) => {
      const size = Math.min(Number.MAX_SAFE_INTEGER, header.length + extraSize);
      const body = JSON.stringify({ filename, size_bytes: size, header_first_200_bytes_base64: header.toString('base64'), ...(createdAt ? { created_at: createdAt } : {}) });
      const answer = await paying('paid detections', { method: 'POST', path: '/api/x402/v1/detect-file-type', headers: { 'content-type': 'application/json' }, body }, placement);
      expect(answer.status, answer.body.toString()).toBe(200);
      expect(Object.keys(json(answer)).sort()).toEqual(['convert_file_compatibility', 'convertible_to', 'detected', 'detected_format', 'input_filename', 'suggested_filename']);
    });
  });

  /** Polls a job through the fuzzer (every answer checked) until it is done or failed. */
  async function settledStatus(property: string, jobId: string): Promise<Record<string, unknown>> {
    for (let i = 0; i < 200; i++) {
      const answer = await exchange(property, { method: 'GET', path: `/api/x402/v1/convert-file/${jobId}/status` });
      expect(answer.status).toBe(200);
      const body = json(answer);
      if (body.status === 'done' || body.status === 'failed') return body;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`job ${jobId} did not finish`);
  }

  /** The pictures among the samples that are whole (the others are damaged on purpose), by the format they are. */
  const WHOLE_PICTURES = new Set(['png', 'jpg', 'gif', 'webp']);
  /** What sharp calls each picture target, and how a PDF starts: every download of a success is checked to be its target. */
  const SHARP_FORMATS: Record<string, string> = { webp: 'webp', jpg: 'jpeg', gif: 'gif', png: 'png', avif: 'heif', tiff: 'tiff' };
  async function expectTargetFormat(bytes: Buffer, target: string): Promise<void> {
    const format = target.toLowerCase();
    if (format === 'pdf') expect(bytes.subarray(0, 5).toString('latin1'), 'a PDF').toBe('%PDF-');
    else expect((await sharp(bytes).metadata()).format, `a ${format} picture`).toBe(SHARP_FORMATS[format]);
  }

  it('paid conversions of any valid upload: status, result, download and delete all keep the contract', async () => {
    const property = 'paid conversions';
    let converted = 0;
    const request = fc.record({
      file: fc.constantFrom(...Object.keys(samples)),
      // Mostly named after what the bytes are (else the evidence rule refuses most of them before payment).
      filename: weighted<string>([3, fc.string({ unit: 'grapheme', minLength: 1, maxLength: 200 }).map((stem) => withoutControlCharacters(stem) || 'x')], [1, clientFileName]),
      named: fc.boolean(),
      createdAt: isoDate,
      target: fc.constantFrom('webp', 'jpg', 'gif', 'png', 'avif', 'tiff', 'JPG'),
      idempotency: weighted<string | undefined>([3, fc.constant(undefined)], [1, printable(128, 8).filter((k) => !/\s/.test(k))]),
      remove: fc.boolean(),
    });
    type Case = typeof request extends fc.Arbitrary<infer T> ? T : never;
    const example = (file: string, target: Case['target'], remove: boolean): Case => ({ file, filename: `holiday ${file}`, named: true, createdAt: '2026-11-01T10:00:00Z', target, idempotency: undefined, remove });
    await assertProperty(request, 15, async ({ file, filename: stem, named, createdAt, target, idempotency, remove }) => {
      const bytes = samples[file]!;
      const filename = named ? `${stem.slice(0, 240)}.${file.split(' ').at(-1)}` : stem;
      // A whole picture named after what it is, to another format, must be taken, converted and sold; anything else may
      // be refused before payment (the evidence rule, a format to itself) or fail, in the contract's shape.
      const mustConvert = WHOLE_PICTURES.has(file) && named && target.toLowerCase() !== file;
      const fields = { target_format: target, filename, created_at: createdAt, size_bytes: String(bytes.length) };
      const created = await paying(property, { method: 'POST', path: '/api/x402/v1/convert-file', ...form(formParts(fields, bytes, filename), idempotency ? { 'idempotency-key': idempotency } : {}) });
      if (mustConvert) expect(created.status, `${file} named ${JSON.stringify(filename)} to ${target}: ${created.body.toString().slice(0, 300)}`).toBe(202);
      if (created.status !== 202) return;
      const jobId = json(created).job_id as string;
      const status = await settledStatus(property, jobId);
      if (mustConvert) expect(status.status, `${file} to ${target}: ${JSON.stringify(status)}`).toBe('done');
      const result = await paying(property, { method: 'GET', path: `/api/x402/v1/convert-file/${jobId}/result` });
      if (status.status === 'done') {
        expect(result.status).toBe(200);
        const download = await exchange(property, { method: 'GET', path: new URL(json(result).download_url as string).pathname });
        expect(download.status).toBe(200);
        await expectTargetFormat(download.body, target);
        converted++;
      } else expect(result.status).toBe(409);
      if (remove) {
        expect((await exchange(property, { method: 'DELETE', path: `/api/x402/v1/convert-file/${jobId}/delete` })).status).toBe(200);
        expect((await exchange(property, { method: 'GET', path: `/api/x402/v1/convert-file/${jobId}/result` })).status).toBe(410);
      }
    }, [example('png', 'webp', false), example('jpg', 'avif', true), example('gif', 'JPG', false)]);
    expect(converted, 'paid conversions converted and sold').toBeGreaterThanOrEqual(3);
  });

  it('key API round trips of any upload: convert to any target and download', async () => {
    const property = 'key round trips';
    let converted = 0;
    const request = fc.record({
      file: fc.constantFrom(...Object.keys(samples)),
      partName: weighted<string>([2, clientFileName], [1, anyText(80).map((s) => s.replace(/["\r\n]/g, ''))]),
      extIn: fc.constantFrom('png', 'jpg', 'gif', 'webp', 'PNG', '.png', 'bmp', 'txt', 'mp3'),
      extOut: fc.constantFrom('webp', 'jpg', 'gif', 'png', 'avif', 'tiff', 'mp3', 'pdf'),
      apiKey: fc.boolean(),
    });
    type Case = typeof request extends fc.Arbitrary<infer T> ? T : never;
    const example = (file: Case['extIn'], extOut: Case['extOut'], withKey: boolean): Case => ({ file, partName: `scan.${file}`, extIn: file, extOut, apiKey: withKey });
    await assertProperty(request, 25, async ({ file, partName, extIn, extOut, apiKey: withKey }) => {
      const keyHeader: Record<string, string> = withKey ? { 'api-key': apiKey } : {};
      // A whole picture said to be what it is, to another picture format or a PDF, must come back converted.
      const mustConvert = WHOLE_PICTURES.has(file) && extIn.toLowerCase().replace(/^\./, '') === file && extOut !== 'mp3' && extOut !== file;
      const uploaded = await exchange(property, { method: 'POST', path: '/api/v1/upload', ...form([{ name: 'file', filename: partName, contentType: 'application/octet-stream', content: samples[file]! }], keyHeader) });
      if (mustConvert) expect(uploaded.status, uploaded.body.toString().slice(0, 300)).toBe(200);
      if (uploaded.status !== 200) return;
      const body = JSON.stringify({ filename: json(uploaded).Filename, ext_in: extIn, ext_out: extOut });
      const answer = await exchange(property, { method: 'POST', path: '/api/v1/convert', headers: { 'content-type': 'application/json', ...keyHeader }, body });
      if (mustConvert) expect(answer.status, `${file} as ${extIn} to ${extOut}: ${answer.body.toString().slice(0, 300)}`).toBe(200);
      if (answer.status !== 200) return;
      const [url] = (json(answer).file as { urls: string[] }).urls;
      const download = await exchange(property, { method: 'GET', path: url! });
      expect(download.status).toBe(200);
      await expectTargetFormat(download.body, extOut);
      converted++;
    }, [example('png', 'pdf', true), example('webp', 'gif', false), example('jpg', 'tiff', true)]);
    expect(converted, 'key API conversions downloaded').toBeGreaterThanOrEqual(3);
  });

  it('the same request several times at once: one payment buys one answer, one key one job', async () => {
    const scenario = fc.constantFrom('same payment on detect', 'same payment on convert', 'same Idempotency-Key, other payments', 'same key API conversion');
    await assertProperty(fc.record({ scenario, copies: fc.integer({ min: 2, max: 4 }) }), 12, async ({ scenario: kind, copies }) => {
      const property = 'concurrent duplicates';
      if (kind === 'same key API conversion') {
        const uploaded = await exchange(property, { method: 'POST', path: '/api/v1/upload', ...form([{ name: 'file', filename: 'p.png', content: png }]) });
        const body = JSON.stringify({ filename: json(uploaded).Filename, ext_in: 'png', ext_out: 'gif' });
        const answers = await Promise.all(Array.from({ length: copies }, () => exchange(property, { method: 'POST', path: '/api/v1/convert', headers: { 'content-type': 'application/json' }, body })));
        expect(answers.map((answer) => answer.status), 'every copy answered with the conversion').toEqual(answers.map(() => 200));
        expect(new Set(answers.map((answer) => answer.body.toString())).size, 'one job, one URL').toBe(1);
        return;
      }
      const route: PaidRoute = kind === 'same payment on detect' ? 'detect' : 'convert';
      const accepted = challenges[route].accepts[0]!;
      const request = paidRequest(route);
      const shared = encodeBase64Json(await signedPayment(payer, accepted));
      const key = `fuzz-${randomBytes(8).toString('hex')}`;
      const answers = await Promise.all(
        Array.from({ length: copies }, async () => {
          const payment = kind === 'same Idempotency-Key, other payments' ? encodeBase64Json(await signedPayment(payer, accepted)) : shared;
          const headers = { ...(request.headers ?? {}), 'payment-signature': payment, ...(kind === 'same Idempotency-Key, other payments' ? { 'idempotency-key': key } : {}) };
          return exchange(property, { ...request, headers });
        }),
      );
      const accepted2xx = answers.filter((answer) => answer.status < 300);
      // The payments are valid: one of the copies is always taken, and only one.
      if (kind === 'same Idempotency-Key, other payments') {
        expect(new Set(accepted2xx.map((answer) => json(answer).job_id)).size, 'one job for one key').toBe(1);
        for (const answer of answers) expect([202, 409]).toContain(answer.status);
      } else expect(accepted2xx.length, 'one payment, one answer').toBe(1);
    });
  });

  it('summary: no 5xx in all the answers, and each property got past the service\'s checks as often as its inputs should', () => {
    console.log(tally.summary(SEED, Date.now() - started));
    expect(tally.serverErrors).toBe(0);
    expect(tally.total).toBeGreaterThan(runs(1500));
    // Inputs are close to valid most of the time, so that each rule is reached on its own: a property whose requests
    // stop being accepted (past every check, or a paid route's challenge) tests only the refusals. Its floor is about
    // half the share seen over many seeds.
    for (const [property, share] of Object.entries(MIN_ACCEPTED_SHARE)) {
      expect(tally.acceptedShare(property), `share of "${property}" accepted`).toBeGreaterThanOrEqual(share);
    }
  });
});
