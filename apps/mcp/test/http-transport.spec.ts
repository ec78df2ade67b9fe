import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMcpConfig } from '../src/config.js';
import { createServer } from '../src/create-server.js';
import { FileshiftContext } from '../src/fileshift-context.js';
import { serveHttp } from '../src/http-transport.js';

const KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
const INITIALIZE = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });

/** A raw POST, so that the Host and Origin headers are exactly what a rebinding page would send. */
function post(port: number, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const sent = request({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } }, (response) => {
      let body = '';
      response.on('data', (chunk) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    sent.on('error', reject);
    sent.end(INITIALIZE);
  });
}

describe('Streamable HTTP transport: loopback only, protected against DNS rebinding', () => {
  let http: Awaited<ReturnType<typeof serveHttp>>;
  let port: number;
  beforeAll(async () => {
    const loaded = loadMcpConfig([], { FILESHIFT_WALLET_PRIVATE_KEY: KEY, FILESHIFT_URL: 'http://127.0.0.1:9', FILESHIFT_LEDGER: join(tmpdir(), `mcp-http-test-${process.pid}`, 'ledger.jsonl') });
    if (!loaded.ok) throw new Error(loaded.problems.join('; '));
    const context = new FileshiftContext(loaded.config);
    http = await serveHttp(() => createServer(context, { allowLocalPaths: false }), { port: 0 });
    port = (http.server.address() as { port: number }).port;
  });
  afterAll(async () => http?.close());

  it('listens on 127.0.0.1 and serves a client that names it', async () => {
    expect(http.server.address()).toMatchObject({ address: '127.0.0.1' });
    const client = new Client({ name: 'http-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`http://localhost:${port}/mcp`)));
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    await client.close();
  });

  it('refuses a request whose Host header names another site', async () => {
    const refused = await post(port, { host: `rebound.example:${port}` });
    expect(refused.status).toBe(403);
    expect(refused.body).toContain(`Host rebound.example:${port} is not allowed`);
  });

  it('refuses a loopback Host on another port, and a foreign Origin', async () => {
    expect((await post(port, { host: `127.0.0.1:${port + 1}` })).status).toBe(403);
    const foreignOrigin = await post(port, { host: `127.0.0.1:${port}`, origin: 'http://rebound.example' });
    expect(foreignOrigin.status).toBe(403);
    expect(foreignOrigin.body).toContain('Origin http://rebound.example is not allowed');
    expect((await post(port, { host: `127.0.0.1:${port}`, origin: `http://localhost:${port}` })).status).toBe(200);
  });
});
