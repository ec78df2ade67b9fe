import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardedFetch, type GuardedFetchOptions } from '../src/guarded-fetch.js';
import { OutboundErrorCode } from '../src/outbound-error.js';
import { outboundPolicy, type OutboundPolicy } from '../src/outbound-policy.js';
import { type LocalServer, startHttpServer, startHttpsServer } from './support/local-servers.js';
import { expectRefused } from './support/refusal.js';
import { fixedResolver } from './support/resolvers.js';

let site: LocalServer;
let secure: LocalServer;
let policy: OutboundPolicy;
let certificate: Buffer;
const seen: Array<{ method: string; url: string; headers: IncomingMessage['headers']; body: string }> = [];
const tlsNames: Array<string | false | null> = [];

const options = (more: Partial<GuardedFetchOptions> = {}): GuardedFetchOptions => ({ policy, maxBytes: 1 << 20, timeoutMs: 5_000, idleTimeoutMs: 2_000, ...more });
const siteUrl = (path: string) => `http://127.0.0.1:${site.port}${path}`;

/** A self-signed certificate for secure.example only; the tests trust it explicitly (`ca`). */
function makeCertificate() {
  const dir = mkdtempSync(join(tmpdir(), 'outbound-tls-'));
  try {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1', '-subj', '/CN=secure.example', '-addext', 'subjectAltName=DNS:secure.example', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')], { stdio: 'pipe' });
    return { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

beforeAll(async () => {
  site = await startHttpServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
    const url = new URL(req.url ?? '/', 'http://site');
    const to = url.searchParams.get('to');
    if (url.pathname === '/redirect' && to) return res.writeHead(Number(url.searchParams.get('status') ?? 302), { location: to }).end();
    if (url.pathname === '/loop') return res.writeHead(302, { location: '/loop' }).end();
    if (url.pathname.startsWith('/status/')) return res.writeHead(Number(url.pathname.slice(8))).end('nope');
    if (url.pathname === '/no-location') return res.writeHead(302).end();
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ method: req.method, body }));
  });
  const { key, cert } = makeCertificate();
  certificate = cert;
  secure = await startHttpsServer({ key, cert }, (req, res) => {
    tlsNames.push((req.socket as TLSSocket).servername);
    res.end('secret');
  });
  policy = outboundPolicy({ allowHosts: ['127.0.0.1/32'], allowPorts: [site.port, secure.port] });
});

afterAll(async () => {
  await Promise.all([site?.close(), secure?.close()]);
});

describe('requests', () => {
  it('sends the method, headers and body, and names the host it was given', async () => {
    seen.length = 0;
    const resolve = fixedResolver({ 'hooks.example': ['127.0.0.1'] });
    const response = await guardedFetch(`http://hooks.example:${site.port}/hook`, options({ method: 'post', headers: { 'content-type': 'application/json', 'x-signature': 'sig', host: 'evil.example' }, body: '{"event":"done"}', resolve }));
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body!.toString())).toEqual({ method: 'POST', body: '{"event":"done"}' });
    expect(seen[0]!.headers).toMatchObject({ host: `hooks.example:${site.port}`, 'x-signature': 'sig', 'content-length': '16', 'accept-encoding': 'gzip, deflate, br' });
  });

  it('refuses a status the caller does not accept, with the status', async () => {
    const error = await expectRefused(guardedFetch(siteUrl('/status/404'), options()), OutboundErrorCode.HttpStatus);
    expect(error.details.status).toBe(404);
    expect(error.message).toBe('The server answered HTTP 404');
    const accepted = await guardedFetch(siteUrl('/status/404'), options({ acceptStatus: (status) => status === 404 }));
    expect(accepted.body?.toString()).toBe('nope');
  });

  it('reaches an allowed IPv6 address, named or literal', async () => {
    const v6 = await startHttpServer((_req, res) => res.end('six'), '::1');
    try {
      const v6Policy = outboundPolicy({ allowHosts: ['::1/128'], allowPorts: [v6.port] });
      const literal = await guardedFetch(`http://[::1]:${v6.port}/`, options({ policy: v6Policy }));
      expect(literal.body?.toString()).toBe('six');
      const named = await guardedFetch(`http://v6.example:${v6.port}/`, options({ policy: v6Policy, resolve: fixedResolver({ 'v6.example': ['::1'] }) }));
      expect(named.body?.toString()).toBe('six');
    } finally {
      await v6.close();
    }
  });

  it('reports a closed port as unreachable', async () => {
    const closed = await startHttpServer(() => {});
    await closed.close();
    await expectRefused(guardedFetch(`http://127.0.0.1:${closed.port}/`, options({ policy: outboundPolicy({ allowHosts: ['127.0.0.1/32'], allowPorts: [closed.port] }) })), OutboundErrorCode.Unreachable);
  });
});

describe('redirects', () => {
  const via = (status: number, to: string) => `/redirect?status=${status}&to=${encodeURIComponent(to)}`;

  it('follows a chain to its end and says where it ended', async () => {
    const response = await guardedFetch(siteUrl(via(301, via(308, '/final'))), options());
    expect(response.redirects).toBe(2);
    expect(response.url).toBe(siteUrl('/final'));
  });

  it('follows at most maxRedirects', async () => {
    seen.length = 0;
    await expectRefused(guardedFetch(siteUrl('/loop'), options()), OutboundErrorCode.TooManyRedirects);
    expect(seen).toHaveLength(6);
    seen.length = 0;
    await expectRefused(guardedFetch(siteUrl('/loop'), options({ maxRedirects: 0 })), OutboundErrorCode.TooManyRedirects);
    expect(seen).toHaveLength(1);
    await expect(guardedFetch(siteUrl(via(302, via(302, '/two'))), options({ maxRedirects: 2 }))).resolves.toMatchObject({ redirects: 2 });
  });

  it.each([
    [303, 'GET', ''],
    [302, 'GET', ''],
    [307, 'POST', 'payload'],
    [308, 'POST', 'payload'],
  ])('a POST answered %i arrives as %s', async (status, method, body) => {
    const response = await guardedFetch(siteUrl(via(status, '/echo')), options({ method: 'POST', body: 'payload' }));
    expect(JSON.parse(response.body!.toString())).toEqual({ method, body });
  });

  it('does not carry credentials to another origin', async () => {
    seen.length = 0;
    const resolve = fixedResolver({ 'other.example': ['127.0.0.1'] });
    await guardedFetch(siteUrl(via(307, `http://other.example:${site.port}/echo`)), options({ headers: { authorization: 'Bearer t' }, resolve }));
    expect(seen.map((request) => request.headers.authorization)).toEqual(['Bearer t', undefined]);
  });

  it('treats a redirect without a Location as its final answer', async () => {
    await expectRefused(guardedFetch(siteUrl('/no-location'), options()), OutboundErrorCode.HttpStatus);
  });
});

describe('TLS through the pinned connection', () => {
  const resolve = () => fixedResolver({ 'secure.example': ['127.0.0.1'], 'wrong.example': ['127.0.0.1'] });

  it('verifies the certificate against the URL host and sends it as SNI', async () => {
    tlsNames.length = 0;
    const response = await guardedFetch(`https://secure.example:${secure.port}/`, options({ resolve: resolve(), ca: certificate }));
    expect(response.body?.toString()).toBe('secret');
    expect(tlsNames).toEqual(['secure.example']);
  });

  it('refuses a certificate for another name, although the address was allowed', async () => {
    tlsNames.length = 0;
    const error = await expectRefused(guardedFetch(`https://wrong.example:${secure.port}/`, options({ resolve: resolve(), ca: certificate })), OutboundErrorCode.Unreachable);
    expect(error.message).toMatch(/certificate/);
    expect(tlsNames).toEqual([]);
  });

  it("refuses a certificate Node's bundle does not trust", async () => {
    await expectRefused(guardedFetch(`https://secure.example:${secure.port}/`, options({ resolve: resolve() })), OutboundErrorCode.Unreachable);
  });
});
