import { createHash } from 'node:crypto';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type Server, type Socket } from 'node:net';
import { gzipSync } from 'node:zlib';
import sharp from 'sharp';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConversionJob } from '../src/conversion-jobs/conversion-job.entity.js';
import { PaymentRecord } from '../src/payments/payment-record.entity.js';
import { keyApiClient } from './support/key-api-client.js';
import { type PaidTestApp, startPaidTestApp } from './support/paid-test-app.js';
import { jobEnded } from './support/x402-jobs.js';

interface ErrorBody {
  error: { code: string; message: string; details?: { reason?: string; status?: number; fields?: Array<{ field: string }> } };
}

/** The allowed file servers live on 127.0.0.3, the only block the allow-list opens; everything else on loopback is private. */
const FILES_HOST = '127.0.0.3';
const MIB = 1024 * 1024;

const listen = (server: Server, host: string, port = 0) =>
  new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve((server.address() as { port: number }).port));
  });
const closeServer = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

describe('source URLs on both APIs, behind the outbound guard (real settlement)', () => {
  let t: PaidTestApp;
  let png: Buffer;
  let bomb: Buffer;
  const servers: Server[] = [];
  const sockets = new Set<Socket>();
  /** Requests the allowed file server answered, by path. */
  const hits = new Map<string, number>();
  /** Connections the canary (the private side: 127.0.0.1, 127.0.0.2, ::1) accepted. */
  let canaryConnections = 0;
  /** Requests for /silent the raw server holds. */
  let silentConnections = 0;
  let filesPort: number;
  let rawPort: number;
  let canaryPort: number;
  let unallowedPort: number;
  let closedPort: number;

  const fileUrl = (path: string) => `http://${FILES_HOST}:${filesPort}${path}`;
  const rawUrl = (path: string) => `http://${FILES_HOST}:${rawPort}${path}`;
  const postJson = (fetcher: typeof fetch, path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetcher(`${t.baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const convertByUrl = (fetcher: typeof fetch, sourceUrl: string, headers: Record<string, string> = {}) =>
    postJson(fetcher, '/api/x402/v1/convert-file', { source_url: sourceUrl, target_format: 'webp' }, headers);
  const detectByUrl = (fetcher: typeof fetch, sourceUrl: string) => postJson(fetcher, '/api/x402/v1/detect-file-type', { source_url: sourceUrl });
  const payTo = () => t.chain.usdcBalanceOf(t.chain.payTo);
  const records = () => t.app.get(DataSource).getRepository(PaymentRecord);
  const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

  /** Runs `work` and asserts it moved no money and settled no payment; returns its answer and the payments it released. */
  async function withoutFee(work: () => Promise<Response>): Promise<{ response: Response; body: ErrorBody; released: string[] }> {
    const [balance, settled, failed] = [await payTo(), await records().countBy({ status: 'settled' }), await records().findBy({ status: 'failed' })];
    const response = await work();
    const body = (await response.json()) as ErrorBody;
    expect(await payTo()).toBe(balance);
    expect(await records().countBy({ status: 'settled' })).toBe(settled);
    const known = new Set(failed.map((record) => record.id));
    const released = (await records().findBy({ status: 'failed' })).filter((record) => !known.has(record.id)).map((record) => record.failureReason ?? '');
    return { response, body, released };
  }

  function serveFiles(request: IncomingMessage, response: ServerResponse): void {
    const path = request.url ?? '/';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    switch (path) {
      case '/files/picture.png':
        response.writeHead(200, { 'content-type': 'image/png' }).end(png);
        return;
      case '/download?id=7':
        response.writeHead(200, { 'content-type': 'application/octet-stream', 'content-disposition': 'attachment; filename="photo.png"' }).end(png);
        return;
      case '/missing':
        response.writeHead(404).end('not here');
        return;
      case '/empty':
        response.writeHead(200, { 'content-length': '0' }).end();
        return;
      case '/declared-huge':
        // Says 50 MB: refused on its Content-Length, before the body.
        response.writeHead(200, { 'content-length': String(50 * MIB) });
        response.write(png);
        return;
      case '/chunked-large':
        response.writeHead(200, { 'content-type': 'application/octet-stream' }).end(Buffer.concat([png, Buffer.alloc(100_000)]));
        return;
      case '/bomb':
        response.writeHead(200, { 'content-encoding': 'gzip', 'content-type': 'application/octet-stream' }).end(bomb);
        return;
      case '/forever': {
        response.writeHead(200, { 'content-type': 'application/octet-stream' });
        response.write(png);
        const drip = setInterval(() => response.write(Buffer.alloc(16)), 250);
        response.on('close', () => clearInterval(drip));
        return;
      }
      case '/hop-1':
        response.writeHead(302, { location: '/hop-2' }).end();
        return;
      case '/hop-2':
        response.writeHead(307, { location: `http://127.0.0.2:${canaryPort}/secret` }).end();
        return;
      default:
        response.writeHead(404).end();
    }
  }

  /** Servers HTTP cannot describe: one that sends nothing, one whose body is longer than its Content-Length. */
  function serveRaw(socket: Socket): void {
    let head = '';
    socket.on('data', (chunk: Buffer) => {
      head += chunk.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      if (head.startsWith('GET /silent ')) {
        silentConnections++;
        return;
      }
      socket.end(`HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: 10\r\n\r\n${'x'.repeat(40)}`);
    });
  }

  async function canary(host: string, port = 0): Promise<number> {
    const server = createNetServer((socket) => {
      canaryConnections++;
      socket.destroy();
    });
    servers.push(server);
    return listen(server, host, port);
  }

  beforeAll(async () => {
    png = await sharp({ create: { width: 64, height: 40, channels: 3, background: '#0066cc' } }).png().toBuffer();
    // 48 MB of zeros in about 48 KB: more than the 40 MB a source may decode to.
    bomb = gzipSync(Buffer.alloc(48 * MIB));

    const files = createHttpServer(serveFiles);
    const raw = createNetServer(serveRaw);
    for (const server of [files, raw]) {
      server.on('connection', (socket: Socket) => {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
      });
      servers.push(server);
    }
    filesPort = await listen(files, FILES_HOST);
    rawPort = await listen(raw, FILES_HOST);
    canaryPort = await canary('127.0.0.1');
    await canary('127.0.0.2', canaryPort);
    await canary('::1', canaryPort);
    unallowedPort = await canary('127.0.0.1');
    const closed = createNetServer();
    closedPort = await listen(closed, FILES_HOST);
    await closeServer(closed);

    t = await startPaidTestApp({
      payerIndex: 0,
      env: {
        OUTBOUND_ALLOW_HOSTS: `${FILES_HOST}/32`,
        OUTBOUND_ALLOW_PORTS: [filesPort, rawPort, canaryPort, closedPort].join(','),
        SOURCE_URL_TIMEOUT_SECONDS: '2',
        SOURCE_URL_IDLE_SECONDS: '1',
        SOURCE_URL_MAX_CONCURRENT: '2',
        KEY_API_ANONYMOUS_MAX_UPLOAD_BYTES: '65536',
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    for (const socket of sockets) socket.destroy();
    await Promise.all(servers.map(closeServer));
  });

  it('documents source_url in the OpenAPI document: both bodies of convert-file and upload, and detect\'s two shapes', async () => {
    const document = (await (await fetch(`${t.baseUrl}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: { $ref: string } }> } }>>;
      components: { schemas: Record<string, { anyOf?: unknown[]; properties?: Record<string, { maxLength?: number; description?: string }> }> };
    };
    expect(Object.keys(document.paths['/api/x402/v1/convert-file']!.post!.requestBody!.content).sort()).toEqual(['application/json', 'multipart/form-data']);
    expect(document.paths['/api/x402/v1/convert-file']!.post!.requestBody!.content['application/json']!.schema.$ref).toBe('#/components/schemas/CreateConversionJobFromUrl');
    expect(document.paths['/api/v1/upload']!.post!.requestBody!.content['application/json']!.schema.$ref).toBe('#/components/schemas/KeyApiUploadFromUrl');
    expect(document.components.schemas.DetectFileTypeRequest!.anyOf).toEqual([
      { $ref: '#/components/schemas/DetectFileTypeFromSample' },
      { $ref: '#/components/schemas/DetectFileTypeFromUrl' },
    ]);
    const field = document.components.schemas.CreateConversionJobFromUrl!.properties!.source_url!;
    expect(field.maxLength).toBe(2048);
    expect(field.description).toMatch(/40 MB.*2 s in all, and 1 s without data/);
  });

  it('a URL conversion is paid once and delivered: the job holds the source\'s bytes, and a repeat with its Idempotency-Key fetches and charges nothing', async () => {
    const before = await payTo();
    const key = `url-${crypto.randomUUID()}`;
    const response = await convertByUrl(t.pay, fileUrl('/files/picture.png'), { 'idempotency-key': key });
    const accepted = (await response.clone().json()) as { job_id: string };
    const done = await jobEnded(response);
    expect(done).toMatchObject({ status: 'done', detected_input_format: 'png', target_format: 'webp' });
    expect(await payTo()).toBe(before + 2000n);
    const job = await t.app.get(DataSource).getRepository(ConversionJob).findOneByOrFail({ id: accepted.job_id });
    expect(job).toMatchObject({ inputSha256: sha256(png), inputSizeBytes: png.length, originalFilename: 'picture.png' });

    const fetches = hits.get('/files/picture.png');
    const again = await convertByUrl(t.pay, fileUrl('/files/picture.png'), { 'idempotency-key': key });
    expect(again.status).toBe(202);
    expect(((await again.json()) as { job_id: string }).job_id).toBe(accepted.job_id);
    expect(hits.get('/files/picture.png')).toBe(fetches);
    expect(await payTo()).toBe(before + 2000n);

    const bought = (await (await t.pay(done.result_url!)).json()) as { download_url: string };
    const converted = Buffer.from(await (await fetch(bought.download_url)).arrayBuffer());
    expect(await sharp(converted).metadata()).toMatchObject({ format: 'webp', width: 64, height: 40 });
  });

  it('a detection by URL is paid once, named by Content-Disposition', async () => {
    const before = await payTo();
    const response = await detectByUrl(t.pay, fileUrl('/download?id=7'));
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ detected: true, input_filename: 'photo.png', detected_format: { format: 'png' } });
    expect(response.headers.get('payment-response')).toBeTruthy();
    expect(await payTo()).toBe(before + 2000n);
  });

  it('the key API uploads by URL, under the caller\'s limit, and converts the upload', async () => {
    const api = keyApiClient(t.baseUrl);
    const upload = (sourceUrl: string) => postJson(fetch, '/api/v1/upload', { source_url: sourceUrl }, { accept: 'application/json' });
    const uploaded = await upload(fileUrl('/files/picture.png'));
    expect(uploaded.status).toBe(200);
    const { Filename } = (await uploaded.json()) as { Filename: string };
    expect(Filename).toMatch(/^[A-Za-z0-9_-]{32}\.png$/);
    const converted = (await (await api.post('convert', { filename: Filename, ext_in: 'png', ext_out: 'webp' })).json()) as { file: { urls: string[] } };
    const download = Buffer.from(await (await fetch(`${t.baseUrl}${converted.file.urls[0]}`)).arrayBuffer());
    expect(await sharp(download).metadata()).toMatchObject({ format: 'webp', width: 64, height: 40 });

    const tooLarge = await upload(fileUrl('/chunked-large'));
    expect(tooLarge.status).toBe(413);
    expect(await tooLarge.json()).toEqual({ Status: 'Error', Message: 'The file at source_url is larger than the limit of 65536 bytes.' });
    const refused = await upload(`http://localhost:${canaryPort}/`);
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { Message: string }).Message).toMatch(/resolves to a loopback address/);
    const literal = await upload(`http://[::1]:${canaryPort}/`);
    expect(literal.status).toBe(400);
    expect(canaryConnections).toBe(0);
  });

  it('an unreachable URL, an error status, an empty or oversized file: the payment is verified, then released; nothing is settled', async () => {
    const cases: Array<[string, (fetcher: typeof fetch) => Promise<Response>, number, string, string]> = [
      ['closed port (convert)', (f) => convertByUrl(f, `http://${FILES_HOST}:${closedPort}/file.png`), 422, 'source_url_failed', 'unreachable'],
      ['closed port (detect)', (f) => detectByUrl(f, `http://${FILES_HOST}:${closedPort}/file.png`), 422, 'source_url_failed', 'unreachable'],
      ['404', (f) => convertByUrl(f, fileUrl('/missing')), 422, 'source_url_failed', 'http_status'],
      ['empty', (f) => convertByUrl(f, fileUrl('/empty')), 422, 'validation_error', 'upload_empty_file'],
      ['declared 50 MB', (f) => convertByUrl(f, fileUrl('/declared-huge')), 413, 'payload_too_large', 'too_large'],
    ];
    for (const [name, request, status, code, reason] of cases) {
      const { response, body, released } = await withoutFee(() => request(t.pay));
      expect(response.status, name).toBe(status);
      expect(body.error.code, name).toBe(code);
      expect(released, name).toEqual([expect.stringContaining(reason)]);
      if (name === '404') expect(body.error.details).toMatchObject({ reason: 'http_status', status: 404 });
    }
  });

  it('refuses every private notation, other schemes and credentials with 422 before the payment is asked; nothing reached', async () => {
    const hostile = [
      `http://127.0.0.1:${unallowedPort}/`,
      `http://127.0.0.1:${canaryPort}/`,
      `http://127.0.0.2:${canaryPort}/`,
      `http://0x7f000001:${canaryPort}/`,
      `http://0x7f000002:${canaryPort}/`,
      `http://2130706433:${canaryPort}/`,
      `http://2130706434:${canaryPort}/`,
      `http://0177.0.0.1:${canaryPort}/`,
      `http://127.1:${canaryPort}/`,
      `http://[::1]:${canaryPort}/`,
      `http://[::ffff:127.0.0.1]:${canaryPort}/`,
      `http://[::ffff:127.0.0.2]:${canaryPort}/`,
      'http://169.254.169.254/latest/meta-data/',
      `http://[2002:7f00:1::]:${canaryPort}/`,
      `http://[2002:7f00:2::]:${canaryPort}/`,
      `http://[64:ff9b::7f00:1]:${canaryPort}/`,
      `http://[64:ff9b::7f00:2]:${canaryPort}/`,
      'file:///etc/passwd',
      `ftp://${FILES_HOST}:${filesPort}/files/picture.png`,
      `gopher://${FILES_HOST}:${filesPort}/_GET%20/files/picture.png`,
      `http://user:secret@${FILES_HOST}:${filesPort}/files/picture.png`,
      'not a url',
      `http://${FILES_HOST}:${filesPort}/${'a'.repeat(2100)}`,
    ];
    const fetched = hits.get('/files/picture.png');
    for (const url of hostile) {
      for (const request of [convertByUrl, detectByUrl]) {
        const { response, body, released } = await withoutFee(() => request(fetch, url));
        expect(response.status, url).toBe(422);
        expect(body.error.code, url).toBe('validation_error');
        expect(body.error.details?.fields?.[0]?.field, url).toBe('source_url');
        expect(released, url).toEqual([]);
      }
    }
    expect(canaryConnections).toBe(0);
    expect(hits.get('/files/picture.png')).toBe(fetched);
  });

  it('a redirect chain ending on a private address, and a name resolving to one, are refused after the payment is verified; nothing settled or reached', async () => {
    for (const url of [fileUrl('/hop-1'), `http://localhost:${canaryPort}/`]) {
      const { response, body, released } = await withoutFee(() => convertByUrl(t.pay, url));
      expect(response.status, url).toBe(422);
      expect(body.error, url).toMatchObject({ code: 'source_url_refused', details: { reason: 'refused_address' }, message: expect.stringMatching(/is a loopback address|resolves to a loopback address/) });
      expect(body.error.message, url).not.toMatch(/127\.0\.0/);
      expect(released, url).toEqual(['source_url_refused:refused_address']);
    }
    expect(hits.get('/hop-2')).toBe(1);
    expect(canaryConnections).toBe(0);
  });

  it('a server that sends nothing, one that sends forever, a decompression bomb, a body longer than its Content-Length: 4xx, nothing settled', async () => {
    const cases: Array<[string, number, string, string]> = [
      [rawUrl('/silent'), 422, 'source_url_failed', 'idle_timeout'],
      [fileUrl('/forever'), 422, 'source_url_failed', 'timeout'],
      [fileUrl('/bomb'), 413, 'payload_too_large', 'too_large'],
      [rawUrl('/longer'), 422, 'source_url_failed', 'bad_response'],
    ];
    for (const [url, status, code, reason] of cases) {
      const { response, body, released } = await withoutFee(() => convertByUrl(t.pay, url));
      expect(response.status, url).toBe(status);
      expect(body.error.code, url).toBe(code);
      expect(released, url).toEqual([expect.stringContaining(reason)]);
    }
  });

  it('past SOURCE_URL_MAX_CONCURRENT fetches, answers 503 with Retry-After before any payment', async () => {
    const waiting = silentConnections;
    const slow = [detectByUrl(t.pay, rawUrl('/silent')), detectByUrl(t.pay, rawUrl('/silent'))];
    while (silentConnections < waiting + 2) await new Promise((resolve) => setTimeout(resolve, 20));
    const busy = await detectByUrl(fetch, fileUrl('/files/picture.png'));
    expect(busy.status).toBe(503);
    expect(busy.headers.get('retry-after')).toBe('5');
    expect(((await busy.json()) as ErrorBody).error.code).toBe('source_url_busy');
    expect((await Promise.all(slow)).map((response) => response.status)).toEqual([422, 422]);
  });
});
