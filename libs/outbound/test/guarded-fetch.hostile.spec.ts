import net from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { guardedFetch } from '../src/guarded-fetch.js';
import { OutboundErrorCode } from '../src/outbound-error.js';
import { outboundPolicy, type OutboundPolicy } from '../src/outbound-policy.js';
import { type LocalServer, startCanary, startHttpServer } from './support/local-servers.js';
import { expectRefused } from './support/refusal.js';
import { fixedResolver, rebindingResolver } from './support/resolvers.js';

/**
 * Hostile URLs against real servers. The canary listens on every loopback address at its port; the site is the one
 * server the allow-list opens (127.0.0.1 only). Every refusal must leave the canary without a single connection.
 */
let canary: LocalServer;
/** On 127.0.0.2 at the site's port: where a rebound name would lead. */
let shadow: LocalServer;
let site: LocalServer;
let siteRequests: string[];
/** No exception but the canary's port: every loopback notation must fall to the address policy alone. */
let strict: OutboundPolicy;
/** The tests' allow-list: 127.0.0.1 and the ports of the site and the canary. */
let local: OutboundPolicy;
const fetchOptions = (policy: OutboundPolicy, more: Partial<Parameters<typeof guardedFetch>[1]> = {}) => ({ policy, maxBytes: 1 << 20, timeoutMs: 5_000, idleTimeoutMs: 2_000, ...more });

beforeAll(async () => {
  canary = await startCanary();
  siteRequests = [];
  site = await startHttpServer((req, res) => {
    siteRequests.push(req.url ?? '');
    const url = new URL(req.url ?? '/', 'http://site');
    const to = url.searchParams.get('to');
    if (url.pathname === '/redirect' && to) res.writeHead(302, { location: to }).end();
    else res.end('hello');
  });
  shadow = await startCanary('127.0.0.2', site.port);
  strict = outboundPolicy({ allowPorts: [canary.port] });
  local = outboundPolicy({ allowHosts: ['127.0.0.1/32'], allowPorts: [canary.port, site.port] });
});

afterEach(() => {
  const seen = { canary: canary.connections, shadow: shadow.connections };
  // Reset first, so one leak fails its own test and not every later one.
  canary.connections = shadow.connections = 0;
  expect(seen, 'a refused request reached a canary').toEqual({ canary: 0, shadow: 0 });
});

afterAll(async () => {
  await Promise.all([canary?.close(), shadow?.close(), site?.close()]);
});

describe('the canary', () => {
  it('counts a connection made to it (the control every other test relies on)', async () => {
    for (const host of ['127.0.0.1', '::1', '127.0.0.2']) {
      const socket = net.connect(canary.port, host);
      await new Promise((resolve) => socket.on('close', resolve).on('error', resolve));
    }
    await expect.poll(() => canary.connections).toBe(3);
    canary.connections = 0;
    // The shadow too, at the site's port on 127.0.0.2.
    const socket = net.connect(site.port, '127.0.0.2');
    await new Promise((resolve) => socket.on('close', resolve).on('error', resolve));
    await expect.poll(() => shadow.connections).toBe(1);
    shadow.connections = 0;
  });
});

describe('loopback notations', () => {
  it.each(['http://0x7f000001:PORT/', 'http://2130706433:PORT/', 'http://0177.0.0.1:PORT/', 'http://127.1:PORT/', 'http://127.0.0.1:PORT/', 'http://127.0.0.2:PORT/', 'http://[::1]:PORT/', 'http://[::ffff:127.0.0.1]:PORT/', 'http://[::ffff:7f00:1]:PORT/', 'http://0.0.0.0:PORT/', 'http://0:PORT/', 'http://[::]:PORT/', 'http://localhost:PORT/'])(
    '%s is refused',
    async (template) => {
      const error = await expectRefused(guardedFetch(template.replace('PORT', String(canary.port)), fetchOptions(strict)), OutboundErrorCode.RefusedAddress);
      expect(error.message).not.toMatch(/127\.|::1|0\.0\.0\.0/);
    },
  );
});

describe('URLs refused before any lookup', () => {
  it.each([
    ['file:///etc/passwd', OutboundErrorCode.RefusedScheme],
    ['ftp://127.0.0.1:PORT/file', OutboundErrorCode.RefusedScheme],
    ['gopher://127.0.0.1:PORT/_GET%20/', OutboundErrorCode.RefusedScheme],
    ['http://user:secret@127.0.0.1:PORT/', OutboundErrorCode.RefusedCredentials],
    ['http://user@127.0.0.1:PORT/', OutboundErrorCode.RefusedCredentials],
  ])('%s: %s', async (template, code) => {
    const resolve = fixedResolver({});
    // The allow-list opens 127.0.0.1 and the canary's port: only the URL rules stand between the request and the canary.
    await expectRefused(guardedFetch(template.replace('PORT', String(canary.port)), fetchOptions(local, { resolve })), code);
    expect(resolve.calls).toEqual([]);
  });

  it('refuses a port the operator did not list, even on an allowed address', async () => {
    await expectRefused(guardedFetch(`http://127.0.0.1:${canary.port}/`, fetchOptions(outboundPolicy({ allowHosts: ['127.0.0.1/32'] }))), OutboundErrorCode.RefusedPort);
  });

  it('refuses a deny-listed name without resolving it', async () => {
    const resolve = fixedResolver({ 'files.example': ['127.0.0.1'] });
    const policy = outboundPolicy({ allowHosts: ['127.0.0.1/32'], denyHosts: ['.example'], allowPorts: [canary.port] });
    await expectRefused(guardedFetch(`http://files.example:${canary.port}/`, fetchOptions(policy, { resolve })), OutboundErrorCode.RefusedHost);
    expect(resolve.calls).toEqual([]);
  });
});

describe('names that resolve to refused addresses', () => {
  it.each([
    [['127.0.0.1']],
    [['::1']],
    [['10.0.0.7']],
    [['169.254.169.254']],
    [['::ffff:127.0.0.1']],
    // One refused answer among public ones refuses the hop: the connection could go to any of them.
    [['93.184.215.14', '127.0.0.1']],
    [['2606:4700::6810:84e5', '::1']],
  ])('a public-looking name resolving to %j is refused', async (answers) => {
    const resolve = fixedResolver({ 'files.example': answers });
    const error = await expectRefused(guardedFetch(`http://files.example:${canary.port}/`, fetchOptions(strict, { resolve })), OutboundErrorCode.RefusedAddress);
    expect(error.message).toMatch(/^The URL's host resolves to an? [a-z -]+ address/);
    expect(resolve.calls).toEqual(['files.example']);
  });

  it('refuses a name that does not resolve as unreachable', async () => {
    await expectRefused(guardedFetch('http://nowhere.example/', fetchOptions(strict, { resolve: fixedResolver({}) })), OutboundErrorCode.Unreachable);
  });
});

describe('DNS rebinding', () => {
  it('connects to the address it checked, not to a later answer', async () => {
    // First answer: the allowed site. Every later one: 127.0.0.2, where the shadow listens at the same port.
    const resolve = rebindingResolver('127.0.0.1', '127.0.0.2');
    siteRequests.length = 0;
    const response = await guardedFetch(`http://rebind.example:${site.port}/pinned`, fetchOptions(local, { resolve }));
    expect(response.body?.toString()).toBe('hello');
    expect(resolve.calls).toEqual(['rebind.example']);
    expect(siteRequests).toEqual(['/pinned']);
  });

  it('resolves and checks again on each redirect hop', async () => {
    const resolve = rebindingResolver('127.0.0.1', '127.0.0.2');
    const location = `http://rebind.example:${site.port}/after`;
    await expectRefused(guardedFetch(`http://rebind.example:${site.port}/redirect?to=${encodeURIComponent(location)}`, fetchOptions(local, { resolve })), OutboundErrorCode.RefusedAddress);
    expect(resolve.calls).toEqual(['rebind.example', 'rebind.example']);
  });
});

describe('redirect chains ending on a refused target', () => {
  const internal = () => fixedResolver({ 'internal.example': ['127.0.0.2'], 'metadata.example': ['169.254.169.254'] });
  const chainTo = (target: string) => {
    const last = `http://127.0.0.1:${site.port}/redirect?to=${encodeURIComponent(target)}`;
    return `http://127.0.0.1:${site.port}/redirect?to=${encodeURIComponent(last)}`;
  };

  it.each([
    ['http://127.0.0.2:CANARY/', OutboundErrorCode.RefusedAddress],
    ['http://0x7f000002:CANARY/', OutboundErrorCode.RefusedAddress],
    ['http://[::1]:CANARY/', OutboundErrorCode.RefusedAddress],
    ['http://[::ffff:127.0.0.2]:CANARY/', OutboundErrorCode.RefusedAddress],
    ['http://internal.example:CANARY/', OutboundErrorCode.RefusedAddress],
    ['http://metadata.example/latest/meta-data/', OutboundErrorCode.RefusedAddress],
    ['http://169.254.169.254/latest/meta-data/', OutboundErrorCode.RefusedAddress],
    ['file:///etc/passwd', OutboundErrorCode.RefusedScheme],
    ['gopher://127.0.0.1:CANARY/_x', OutboundErrorCode.RefusedScheme],
    ['http://user:pw@127.0.0.1:CANARY/', OutboundErrorCode.RefusedCredentials],
    ['http://127.0.0.1:1/', OutboundErrorCode.RefusedPort],
  ])('%s is refused', async (template, code) => {
    siteRequests.length = 0;
    const error = await expectRefused(guardedFetch(chainTo(template.replace('CANARY', String(canary.port))), fetchOptions(local, { resolve: internal() })), code);
    expect(error.message).toMatch(/^A redirect/);
    expect(siteRequests).toHaveLength(2);
  });
});
