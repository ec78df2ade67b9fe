import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pricesOf, resultPriceFor } from '@fileshift/sdk';
import { startWebhookReceiver, type WebhookReceiver } from '@fileshift/testing';
import { ResourceListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatAmount } from '../src/usdc-amount.js';
import { TINY_PNG } from './support/fixtures.js';
import { call, McpHarness, structured, text } from './support/mcp-harness.js';

function listening(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

/** A file host on loopback, allow-listed for the service only; it notes every request and who made it. */
async function startFileHost() {
  const requests: Array<{ path: string; userAgent?: string }> = [];
  const server = createServer((request, response) => {
    requests.push({ path: request.url ?? '', userAgent: request.headers['user-agent'] });
    switch (request.url) {
      case '/picture':
        return response.writeHead(200, { 'content-type': 'image/png', 'content-disposition': 'attachment; filename="from-header.png"' }).end(TINY_PNG);
      case '/redirect':
        return response.writeHead(302, { location: '/picture' }).end();
      case '/to-private':
        return response.writeHead(302, { location: 'http://10.1.2.3/picture' }).end();
      default:
        return response.writeHead(404).end();
    }
  });
  const port = await listening(server);
  return { server, port, base: `http://127.0.0.1:${port}`, requests };
}

describe('files by URL are passed to the service, which fetches them through its outbound guard (live service, dev chain)', () => {
  let harness: McpHarness;
  let host: Awaited<ReturnType<typeof startFileHost>>;
  let receiver: WebhookReceiver;
  /** The requests the file host got while `run` ran. */
  const requestsDuring = async <T>(run: () => Promise<T>) => {
    const from = host.requests.length;
    const result = await run();
    return { result, requests: host.requests.slice(from) };
  };

  beforeAll(async () => {
    host = await startFileHost();
    receiver = await startWebhookReceiver();
    // Loopback is a private address: the service reaches the two servers only because its allow-list names them.
    // The MCP server has no such setting: it never connects to a url input.
    harness = await McpHarness.start({ OUTBOUND_ALLOW_HOSTS: '127.0.0.1/32', OUTBOUND_ALLOW_PORTS: `${host.port},${receiver.port}` });
  });
  afterAll(async () => {
    host?.server.close();
    await receiver?.close();
    await harness?.stop();
  });

  it('detect_file_type: the service fetches the file (one request, its user agent) and names it from Content-Disposition', async () => {
    const client = await harness.connect(harness.context());
    const { result: detected, requests } = await requestsDuring(() => call(client, 'detect_file_type', { url: `${host.base}/picture` }));
    expect(detected.isError, text(detected)).toBeFalsy();
    expect(structured(detected)).toMatchObject({ format: 'png', paid_usdc: '0.002000' });
    expect(text(detected)).toMatch(/^from-header\.png is /);
    expect(requests).toEqual([{ path: '/picture', userAgent: 'fileshift' }]);
  });

  it('convert_and_download by URL: the service follows the redirect; the result, priced by the fetched size, is a listed, readable MCP resource', async () => {
    const client = await harness.connect(harness.context());
    let listChanged = 0;
    client.setNotificationHandler(ResourceListChangedNotificationSchema, () => void listChanged++);
    const { result: converted, requests } = await requestsDuring(() => call(client, 'convert_and_download', { url: `${host.base}/redirect`, target_format: 'webp' }));
    expect(converted.isError, text(converted)).toBeFalsy();
    expect(requests).toEqual([
      { path: '/redirect', userAgent: 'fileshift' },
      { path: '/picture', userAgent: 'fileshift' },
    ]);
    const result = structured<{ job_id: string; filename: string; path: string; resource_uri: string }>(converted);
    // Planned at the highest result price (the size was unknown), charged the lowest tier's, which the fetched file is in.
    expect(result).toMatchObject({ filename: 'from-header.webp', job_fee_usdc: '0.002000', price_paid_usdc: '0.020000', embedded_as: 'image', mime_type: 'image/webp' });
    const bytes = readFileSync(result.path);
    expect(bytes.subarray(8, 12).toString()).toBe('WEBP');
    expect(converted.content.slice(1)).toEqual([
      { type: 'resource_link', uri: result.resource_uri, name: result.filename, title: expect.any(String), mimeType: 'image/webp', size: bytes.length },
      { type: 'image', mimeType: 'image/webp', data: bytes.toString('base64') },
    ]);
    const read = await client.readResource({ uri: result.resource_uri });
    expect(read.contents).toEqual([{ uri: result.resource_uri, mimeType: 'image/webp', blob: bytes.toString('base64') }]);
    expect(listChanged).toBe(1);
  });

  it('convert_file by URL says the result costs "up to" the highest price, and passes webhook_url on: the service announces the end there', async () => {
    const ctx = harness.context();
    const client = await harness.connect(ctx);
    const started = await call(client, 'convert_file', { url: `${host.base}/picture`, target_format: 'webp', webhook_url: receiver.url('/hooks') });
    expect(started.isError, text(started)).toBeFalsy();
    const { job_id: jobId, expected_result_price_usdc: expected } = structured<{ job_id: string; expected_result_price_usdc: string }>(started);
    expect(expected).toBe(formatAmount(resultPriceFor(pricesOf(await ctx.serviceFacts()), Number.POSITIVE_INFINITY)!));
    expect(expected).not.toBe('0.020000'); // the highest tier, not the tier the file is in
    expect(text(started)).toContain(`The result will cost up to ${expected} USDC.`);
    expect(text(started)).toContain('signed event to the webhook_url');
    await receiver.first;
    expect(receiver.received).toHaveLength(1);
    expect(JSON.parse(receiver.received[0]!.body)).toMatchObject({ type: 'conversion.done', data: { job_id: jobId, status: 'done' } });
    expect(receiver.received[0]!.headers['webhook-signature']).toMatch(/^v1a,/);
  });

  it('a url the service will not fetch is a tool error and nothing is paid; this server never connects to it', async () => {
    const ctx = harness.context();
    const client = await harness.connect(ctx);
    const before = await harness.payerBalance();
    const refusedBy = async (cases: [Record<string, string>, string][]) => {
      for (const [input, expected] of cases) {
        const refused = await call(client, 'convert_and_download', { ...input, target_format: 'webp' });
        expect(refused.isError, JSON.stringify(input)).toBe(true);
        expect(text(refused), JSON.stringify(input)).toContain(expected);
      }
    };
    const { requests } = await requestsDuring(async () => {
      // Refused by the service's guard before it settles anything: private addresses, a port it is not allowed. The job fee
      // was signed ahead (the SDK pays a published challenge on the first try), so the wallet's ledger counts it; it never settles.
      await refusedBy([
        [{ url: 'http://10.1.2.3/picture' }, 'refused the request before any payment, nothing was paid (validation_error)'],
        [{ url: 'http://169.254.169.254/latest/meta-data/' }, 'refused the request before any payment'],
        [{ url: 'http://127.0.0.1:1/picture' }, 'refused the request before any payment'],
      ]);
      // Refused here, by form, before anything is signed.
      const signed = ctx.ledger.total();
      await refusedBy([
        [{ url: 'file:///etc/passwd' }, 'url must be an http or https URL'],
        [{ url: 'not a url' }, 'is not a URL'],
        [{ url: `${host.base}/picture`, content_base64: TINY_PNG.toString('base64'), filename: 'x.png' }, 'exactly one of path'],
      ]);
      expect(ctx.ledger.total()).toBe(signed);
    });
    expect(requests).toEqual([]);
    expect(await harness.payerBalance()).toBe(before);
  });

  it('a redirect to a private address is refused by the service once the payment is verified, and that payment is never settled', async () => {
    const client = await harness.connect(harness.context());
    const before = await harness.payerBalance();
    const { result: refused, requests } = await requestsDuring(() => call(client, 'detect_file_type', { url: `${host.base}/to-private` }));
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(/^The service did not get the file from the url, and charged nothing \(source_url_refused\)/);
    expect(requests).toEqual([{ path: '/to-private', userAgent: 'fileshift' }]);
    expect(await harness.payerBalance()).toBe(before);
  });
});
