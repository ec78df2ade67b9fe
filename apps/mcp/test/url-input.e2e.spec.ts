import { readFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ResourceListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TINY_PNG } from './support/fixtures.js';
import { call, McpHarness, structured, text } from './support/mcp-harness.js';

/** A file host on loopback, allowed only through the development option FILESHIFT_URL_DEV_HOSTS. */
function startFileHost(): Promise<{ server: Server; base: string; port: number }> {
  const stalled: ServerResponse[] = [];
  const server = createServer((request, response) => {
    const port = (server.address() as AddressInfo).port;
    const redirect = (location: string) => response.writeHead(302, { location }).end();
    switch (request.url) {
      case '/picture':
        return response.writeHead(200, { 'content-type': 'image/png', 'content-disposition': 'attachment; filename="from-header.png"' }).end(TINY_PNG);
      case '/redirect':
        return redirect('/picture');
      case '/to-loopback':
        return redirect(`https://localhost:${port}/picture`);
      case '/loop':
        return redirect('/loop');
      case '/big': {
        // 41 MiB without a Content-Length: the cap must hold while streaming.
        response.writeHead(200, { 'content-type': 'application/octet-stream' });
        response.on('error', () => undefined);
        const chunk = Buffer.alloc(1024 * 1024);
        for (let i = 0; i < 41; i++) response.write(chunk);
        return response.end();
      }
      case '/slow':
        return void stalled.push(response);
      default:
        return response.writeHead(404).end();
    }
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ server, base: `http://127.0.0.1:${port}`, port });
    }),
  );
}

describe('files by URL: https to public addresses only, checked on every hop, capped and timed (live service, dev chain)', () => {
  let harness: McpHarness;
  let host: Awaited<ReturnType<typeof startFileHost>>;
  const context = () => harness.context({ FILESHIFT_URL_DEV_HOSTS: `127.0.0.1:${host.port}`, FILESHIFT_URL_TIMEOUT_SECONDS: '3' });
  beforeAll(async () => {
    harness = await McpHarness.start();
    host = await startFileHost();
  });
  afterAll(async () => {
    host?.server.closeAllConnections();
    host?.server.close();
    await harness?.stop();
  });

  it('detect_file_type downloads the file and names it from Content-Disposition', async () => {
    const client = await harness.connect(context());
    const detected = await call(client, 'detect_file_type', { url: `${host.base}/picture` });
    expect(detected.isError, text(detected)).toBeFalsy();
    expect(structured(detected)).toMatchObject({ format: 'png', paid_usdc: '0.002000' });
    expect(text(detected)).toMatch(/^from-header\.png is /);
  });

  it('convert_and_download by URL follows a redirect; the result is a listed, readable MCP resource, linked and embedded as an image', async () => {
    const client = await harness.connect(context());
    let listChanged = 0;
    client.setNotificationHandler(ResourceListChangedNotificationSchema, () => void listChanged++);
    const converted = await call(client, 'convert_and_download', { url: `${host.base}/redirect`, target_format: 'webp' });
    expect(converted.isError, text(converted)).toBeFalsy();
    const result = structured<{ job_id: string; filename: string; path: string; resource_uri: string }>(converted);
    expect(result.resource_uri).toBe(`fileshift://results/${result.job_id}/${encodeURIComponent(result.filename)}`);
    expect(result).toMatchObject({ embedded_as: 'image', too_big_to_embed: false, mime_type: 'image/webp' });
    const bytes = readFileSync(result.path);
    expect(converted.content.slice(1)).toEqual([
      { type: 'resource_link', uri: result.resource_uri, name: result.filename, title: expect.any(String), mimeType: 'image/webp', size: bytes.length },
      { type: 'image', mimeType: 'image/webp', data: bytes.toString('base64') },
    ]);
    expect(text(converted)).toContain(`Readable as the MCP resource ${result.resource_uri}; embedded below as image content.`);

    const { resources } = await client.listResources();
    expect(resources).toEqual([expect.objectContaining({ uri: result.resource_uri, mimeType: 'image/webp', size: bytes.length })]);
    const read = await client.readResource({ uri: result.resource_uri });
    expect(read.contents).toEqual([{ uri: result.resource_uri, mimeType: 'image/webp', blob: bytes.toString('base64') }]);
    expect(listChanged).toBe(1);
    await expect(client.readResource({ uri: `fileshift://results/unknown-job/${result.filename}` })).rejects.toThrow(/No result .* in this session/);
  });

  it('refuses, before paying anything, what it must not or cannot fetch, and says why', async () => {
    const ctx = context();
    const client = await harness.connect(ctx);
    const before = await harness.payerBalance();
    const cases: [Record<string, string>, string][] = [
      [{ url: 'http://example.com/picture.png' }, 'Only https URLs are fetched'],
      [{ url: 'file:///etc/passwd' }, 'Only https URLs are fetched'],
      [{ url: 'not a url' }, 'is not a URL'],
      [{ url: 'https://127.0.0.1/picture' }, 'resolves to a loopback address (127.0.0.1)'],
      [{ url: 'https://localhost/picture' }, 'resolves to a loopback address'],
      [{ url: 'https://[::ffff:127.0.0.1]/picture' }, 'resolves to a loopback address'],
      [{ url: 'https://169.254.169.254/latest/meta-data/' }, 'resolves to a link-local address'],
      [{ url: 'https://10.1.2.3/picture' }, 'resolves to a private address'],
      [{ url: 'https://[fd00::1]/picture' }, 'resolves to a unique-local address'],
      [{ url: `${host.base}/to-loopback` }, `https://localhost:${host.port}/picture is refused: localhost resolves to a loopback address`],
      [{ url: `${host.base}/loop` }, 'redirects more than 3 times'],
      [{ url: `${host.base}/missing` }, 'answered HTTP 404'],
      [{ url: `${host.base}/big` }, 'the service converts files up to 41943040 bytes'],
      [{ url: `${host.base}/slow` }, 'did not arrive within 3 s'],
      [{ url: `${host.base}/picture`, content_base64: TINY_PNG.toString('base64'), filename: 'x.png' }, 'exactly one of path'],
    ];
    for (const [input, expected] of cases) {
      const refused = await call(client, 'convert_and_download', { ...input, target_format: 'webp' });
      expect(refused.isError, JSON.stringify(input)).toBe(true);
      expect(text(refused), JSON.stringify(input)).toContain(expected);
    }
    expect(ctx.ledger.total()).toBe(0n);
    expect(await harness.payerBalance()).toBe(before);
  });
});
