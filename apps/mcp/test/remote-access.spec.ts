import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMcpConfig } from '../src/config.js';
import { createServer } from '../src/create-server.js';
import { FileshiftContext } from '../src/fileshift-context.js';
import { serveHttp } from '../src/http-transport.js';
import { UNFUNDED_KEY } from './support/built-http-server.js';

const TOKEN = 'b'.repeat(48);
const INITIALIZE = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });

interface Answer {
  status: number;
  body: string;
  challenge?: string;
}

/** A raw initialize POST, so that Host, Origin and Authorization are exactly what a client or a proxy sends. */
function post(port: number, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const sent = request({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } }, (response) => {
      let body = '';
      response.on('data', (chunk) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body, challenge: response.headers['www-authenticate'] }));
    });
    sent.on('error', reject);
    sent.end(INITIALIZE);
  });
}

describe('Streamable HTTP for a remote host: bearer token, configured host names and origins', () => {
  let http: Awaited<ReturnType<typeof serveHttp>>;
  let port: number;
  beforeAll(async () => {
    const loaded = loadMcpConfig([], { FILESHIFT_WALLET_PRIVATE_KEY: UNFUNDED_KEY, FILESHIFT_URL: 'http://127.0.0.1:9', FILESHIFT_LEDGER: join(tmpdir(), `mcp-remote-test-${process.pid}`, 'ledger.jsonl') });
    if (!loaded.ok) throw new Error(loaded.problems.join('; '));
    const context = new FileshiftContext(loaded.config);
    http = await serveHttp(() => createServer(context, { allowLocalPaths: false }), {
      port: 0,
      allowed: { hosts: ['mcp.example.com'], origins: ['https://app.example.com'] },
      bearerToken: TOKEN,
    });
    port = (http.server.address() as { port: number }).port;
  });
  afterAll(async () => http?.close());

  it('answers 401 with a Bearer challenge without a token, and invalid_token with a wrong one', async () => {
    const missing = await post(port, { host: 'mcp.example.com' });
    expect(missing).toMatchObject({ status: 401, challenge: 'Bearer realm="fileshift-mcp"' });
    expect(missing.body).toContain('Authorization: Bearer');
    const wrong = await post(port, { host: 'mcp.example.com', authorization: `Bearer ${'c'.repeat(48)}` });
    expect(wrong).toMatchObject({ status: 401, challenge: 'Bearer realm="fileshift-mcp", error="invalid_token"' });
    expect((await post(port, { host: 'mcp.example.com', authorization: `Bearer ${TOKEN}x` })).status).toBe(401);
    expect((await post(port, { host: 'mcp.example.com', authorization: TOKEN })).status).toBe(401);
  });

  it('serves the configured host name (as a proxy forwards it, any port) and loopback names, with the token', async () => {
    const auth = { authorization: `Bearer ${TOKEN}` };
    expect((await post(port, { host: 'mcp.example.com', ...auth })).status).toBe(200);
    expect((await post(port, { host: 'mcp.example.com:443', ...auth })).status).toBe(200);
    expect((await post(port, { host: `127.0.0.1:${port}`, ...auth })).status).toBe(200);
    expect((await post(port, { host: 'mcp.example.com', origin: 'https://app.example.com', ...auth })).status).toBe(200);
  });

  it('checks Host and Origin before the token: another name is 403 even with the token', async () => {
    const auth = { authorization: `Bearer ${TOKEN}` };
    expect((await post(port, { host: 'evil.example.com', ...auth })).status).toBe(403);
    expect((await post(port, { host: 'mcp.example.com.evil.example', ...auth })).status).toBe(403);
    expect((await post(port, { host: 'mcp.example.com', origin: 'https://evil.example.com', ...auth })).status).toBe(403);
    expect((await post(port, { host: 'evil.example.com' })).status).toBe(403);
  });
});
