import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { brotliCompressSync, deflateSync, gzipSync, constants as zlibConstants } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardedFetch, type GuardedFetchOptions } from '../src/guarded-fetch.js';
import { OutboundErrorCode } from '../src/outbound-error.js';
import { outboundPolicy, type OutboundPolicy } from '../src/outbound-policy.js';
import { type LocalServer, startHttpServer, startRawServer } from './support/local-servers.js';
import { expectRefused } from './support/refusal.js';

const LIMIT = 256 * 1024;
const TEXT = Buffer.from('The quick brown fox jumps over the lazy dog. '.repeat(2000));
// 64 times the limit in zeros: a few KiB on the wire.
const BOMB_SIZE = 64 * LIMIT;

/** Responses no HTTP server library would send, written raw. */
const RAW_RESPONSES: Record<string, string | Buffer> = {
  // 16 bytes declared, far more than the limit sent at once.
  liar: Buffer.concat([Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 16\r\n\r\n'), Buffer.alloc(4 * LIMIT, 'y')]),
  short: 'HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n0123456789',
  'unknown-encoding': 'HTTP/1.1 200 OK\r\nContent-Encoding: compress\r\nContent-Length: 5\r\n\r\nhello',
  'broken-gzip': 'HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: 5\r\n\r\nhello',
  'not-http': 'SSH-2.0-OpenSSH_9.2\r\n',
};

let site: LocalServer;
let policy: OutboundPolicy;
let workDir: string;
let gzipBomb: Buffer;
let brotliBomb: Buffer;
/** Whether the server saw the request's connection close before it finished sending (the client hung up). */
let serverSawHangUp: Record<string, boolean>;

const options = (more: Partial<GuardedFetchOptions> = {}): GuardedFetchOptions => ({ policy, maxBytes: LIMIT, timeoutMs: 10_000, idleTimeoutMs: 2_000, ...more });
const siteUrl = (path: string) => `http://127.0.0.1:${site.port}${path}`;

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'outbound-limits-'));
  const zeros = Buffer.alloc(BOMB_SIZE);
  gzipBomb = gzipSync(zeros, { level: 9 });
  expect(gzipBomb.length).toBeLessThan(LIMIT / 10);
  brotliBomb = brotliCompressSync(zeros, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5 } });
  serverSawHangUp = {};
  site = await startHttpServer((req, res) => {
    const path = req.url ?? '/';
    res.on('close', () => (serverSawHangUp[path] = !res.writableFinished));
    switch (path) {
      case '/text':
        return res.end(TEXT);
      case '/gzip':
        return res.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync(TEXT));
      case '/deflate':
        return res.writeHead(200, { 'content-encoding': 'deflate' }).end(deflateSync(TEXT));
      case '/br':
        return res.writeHead(200, { 'content-encoding': 'br' }).end(brotliCompressSync(TEXT));
      case '/gzip-then-br':
        return res.writeHead(200, { 'content-encoding': 'gzip, br' }).end(brotliCompressSync(gzipSync(TEXT)));
      case '/gzip-bomb':
        return res.writeHead(200, { 'content-encoding': 'gzip', 'content-length': gzipBomb.length }).end(gzipBomb);
      case '/br-bomb':
        return res.writeHead(200, { 'content-encoding': 'br', 'content-length': brotliBomb.length }).end(brotliBomb);
      case '/transfer-gzip-bomb':
        // A transfer coding is undone by the client like a content coding, and counted the same way.
        return res.writeHead(200, { 'transfer-encoding': 'gzip, chunked' }).end(gzipBomb);
      case '/declared-huge':
        // Declares a body over the limit and never sends it: refused on the header, without waiting.
        res.writeHead(200, { 'content-length': String(100 * LIMIT) });
        return res.flushHeaders();
      case '/forever': {
        const chunk = Buffer.alloc(16 * 1024, 'x');
        const pump = () => {
          while (!res.destroyed && res.write(chunk));
        };
        res.on('drain', pump);
        return pump();
      }
      case '/drip': {
        // One byte every 20 ms: never idle, never done.
        const timer = setInterval(() => res.write('x'), 20);
        return res.on('close', () => clearInterval(timer));
      }
      case '/stall':
        res.writeHead(200, { 'content-length': '1000' });
        return res.write('0123456789');
      case '/silent-head':
        return;
      default:
        res.writeHead(404).end();
    }
  });
  policy = outboundPolicy({ allowHosts: ['127.0.0.1/32'], allowPorts: [site.port] });
});

afterAll(async () => {
  await Promise.all([site?.close(), rm(workDir, { recursive: true, force: true })]);
});

/** A raw server that answers every request with `response`, as bytes no HTTP server library would send. */
async function rawServerAnswering(response: string | Buffer, { end = true } = {}) {
  const server = await startRawServer((socket) => {
    socket.write(response);
    if (end) socket.end();
  });
  return { server, url: `http://127.0.0.1:${server.port}/`, policy: outboundPolicy({ allowHosts: ['127.0.0.1/32'], allowPorts: [server.port] }) };
}

describe('decoding', () => {
  it.each(['/text', '/gzip', '/deflate', '/br', '/gzip-then-br'])('%s arrives decoded and counted decoded', async (path) => {
    const response = await guardedFetch(siteUrl(path), options({ maxBytes: TEXT.length }));
    expect(response.body?.equals(TEXT)).toBe(true);
    expect(response.bytes).toBe(TEXT.length);
  });

  it('refuses a body one byte over the limit, counted decoded', async () => {
    await expectRefused(guardedFetch(siteUrl('/gzip'), options({ maxBytes: TEXT.length - 1 })), OutboundErrorCode.TooLarge);
  });
});

describe('size limit', () => {
  it.each(['/gzip-bomb', '/br-bomb', '/transfer-gzip-bomb'])('%s stops at the limit', async (path) => {
    await expectRefused(guardedFetch(siteUrl(path), options()), OutboundErrorCode.TooLarge);
  });

  it('refuses a body that never ends at the limit', async () => {
    await expectRefused(guardedFetch(siteUrl('/forever'), options({ timeoutMs: 30_000 })), OutboundErrorCode.TooLarge);
    await expect.poll(() => serverSawHangUp['/forever']).toBe(true);
  });

  it('refuses a declared length over the limit without waiting for the body', async () => {
    // The idle limit is far longer than the test: only the header can have refused it.
    await expectRefused(guardedFetch(siteUrl('/declared-huge'), options({ idleTimeoutMs: 60_000, timeoutMs: 60_000 })), OutboundErrorCode.TooLarge);
    await expect.poll(() => serverSawHangUp['/declared-huge']).toBe(true);
  });

  it('refuses a body longer than its Content-Length', async () => {
    const { server, url, policy: rawPolicy } = await rawServerAnswering(RAW_RESPONSES.liar!);
    try {
      await expectRefused(guardedFetch(url, { ...options(), policy: rawPolicy }), OutboundErrorCode.BadResponse);
    } finally {
      await server.close();
    }
  });

  it('refuses a body shorter than its Content-Length', async () => {
    const { server, url, policy: rawPolicy } = await rawServerAnswering(RAW_RESPONSES.short!);
    try {
      await expectRefused(guardedFetch(url, { ...options(), policy: rawPolicy }), OutboundErrorCode.BadResponse);
    } finally {
      await server.close();
    }
  });

  it.each(['unknown-encoding', 'broken-gzip', 'not-http'])('refuses a %s response', async (name) => {
    const { server, url, policy: rawPolicy } = await rawServerAnswering(RAW_RESPONSES[name]!);
    try {
      await expectRefused(guardedFetch(url, { ...options(), policy: rawPolicy }), OutboundErrorCode.BadResponse);
    } finally {
      await server.close();
    }
  });
});

describe('time limits', () => {
  it('refuses a server that accepts and sends nothing (idle)', async () => {
    const { server, url, policy: rawPolicy } = await rawServerAnswering('', { end: false });
    try {
      await expectRefused(guardedFetch(url, { ...options({ idleTimeoutMs: 300 }), policy: rawPolicy }), OutboundErrorCode.IdleTimeout);
    } finally {
      await server.close();
    }
  });

  it('refuses a server that never answers the request (idle)', async () => {
    await expectRefused(guardedFetch(siteUrl('/silent-head'), options({ idleTimeoutMs: 300 })), OutboundErrorCode.IdleTimeout);
  });

  it('refuses a body that stops halfway (idle)', async () => {
    await expectRefused(guardedFetch(siteUrl('/stall'), options({ idleTimeoutMs: 300 })), OutboundErrorCode.IdleTimeout);
  });

  it('refuses a body that trickles on past the total time', async () => {
    await expectRefused(guardedFetch(siteUrl('/drip'), options({ idleTimeoutMs: 5_000, timeoutMs: 400 })), OutboundErrorCode.Timeout);
    await expect.poll(() => serverSawHangUp['/drip']).toBe(true);
  });

  it("stops when the caller's signal fires", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    await expectRefused(guardedFetch(siteUrl('/drip'), options({ signal: controller.signal })), OutboundErrorCode.Aborted);
  });
});

describe('destinations', () => {
  it('streams the body to a file', async () => {
    const file = join(workDir, 'text.out');
    const response = await guardedFetch(siteUrl('/gzip'), options({ to: file }));
    expect(response.body).toBeUndefined();
    expect(readFileSync(file).equals(TEXT)).toBe(true);
  });

  it('removes the file of a refused body', async () => {
    const file = join(workDir, 'bomb.out');
    await expectRefused(guardedFetch(siteUrl('/gzip-bomb'), options({ to: file })), OutboundErrorCode.TooLarge);
    expect(existsSync(file)).toBe(false);
  });

  it('streams the body to a consumer, and fails the consumer with a refused body', async () => {
    const chunks: Buffer[] = [];
    const consumer = () =>
      new Writable({
        write(chunk: Buffer, _encoding, callback) {
          chunks.push(chunk);
          callback();
        },
      });
    await guardedFetch(siteUrl('/br'), options({ to: consumer() }));
    expect(Buffer.concat(chunks).equals(TEXT)).toBe(true);

    const refused = consumer();
    await expectRefused(guardedFetch(siteUrl('/forever'), options({ to: refused })), OutboundErrorCode.TooLarge);
    expect(refused.destroyed).toBe(true);
    expect(refused.writableFinished).toBe(false);
  });
});
