import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encryptKeystore } from '@fileshift/agent-wallet';
import { freePort, type LiveService, startLiveService } from '@fileshift/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_SERVER, startBuiltHttpServer } from './support/built-http-server.js';
import { TINY_PNG } from './support/fixtures.js';


/** The result a conversion names, read back through resources/read: a WebP. */
async function expectWebpResource(client: Client, converted: CallToolResult): Promise<void> {
  const { resource_uri: uri } = converted.structuredContent as { resource_uri: string };
  const read = await client.readResource({ uri });
  expect(read.contents[0]).toMatchObject({ uri, mimeType: 'image/webp' });
  expect(Buffer.from((read.contents[0] as { blob: string }).blob, 'base64').subarray(8, 12).toString()).toBe('WEBP');
}

describe('the built MCP server over its transports', () => {
  let service: LiveService;
  let dir: string;
  // A file host on loopback that only the service fetches from: allow-listed for the service's outbound guard.
  const files = createServer((_request, response) => response.writeHead(200, { 'content-type': 'image/png' }).end(TINY_PNG));
  let filePort: number;
  const env = () => ({
    PATH: process.env.PATH ?? '',
    FILESHIFT_URL: service.baseUrl,
    FILESHIFT_WALLET_PRIVATE_KEY: service.devChain.payerPrivateKey,
    FILESHIFT_OUTPUT_DIR: join(dir, 'out'),
    FILESHIFT_LEDGER: join(dir, 'ledger.jsonl'),
    FILESHIFT_ALLOWED_ROOTS: dir,
  });

  beforeAll(async () => {
    await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
    filePort = (files.address() as AddressInfo).port;
    service = await startLiveService({ OUTBOUND_ALLOW_HOSTS: '127.0.0.1/32', OUTBOUND_ALLOW_PORTS: String(filePort) });
    dir = mkdtempSync(join(tmpdir(), 'mcp-transports-'));
    writeFileSync(join(dir, 'picture.png'), TINY_PNG);
  });
  afterAll(async () => {
    await service?.stop();
    files.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('stdio (spawned like Claude Desktop does): a bad path as isError, then detect and a full conversion', async () => {
    const client = new Client({ name: 'stdio-test', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [BUILT_SERVER], env: env(), stderr: 'pipe' }));
    try {
      const missing = (await client.callTool({ name: 'detect_file_type', arguments: { path: join(dir, 'missing.png') } })) as CallToolResult;
      expect(missing.isError).toBe(true);
      expect((missing.content[0] as { text: string }).text).toBe(`No readable file at ${join(dir, 'missing.png')}.`);
      const outsideRoots = (await client.callTool({ name: 'detect_file_type', arguments: { path: '/etc/hostname' } })) as CallToolResult;
      expect((outsideRoots.content[0] as { text: string }).text).toBe(`/etc/hostname is outside the allowed roots (${dir}); only files inside them are read.`);
      const detected = (await client.callTool({ name: 'detect_file_type', arguments: { path: join(dir, 'picture.png') } })) as CallToolResult;
      expect(detected.structuredContent).toMatchObject({ format: 'png', paid_usdc: '0.002000' });
      expect(detected.isError).toBeFalsy();
      const converted = (await client.callTool({ name: 'convert_and_download', arguments: { path: join(dir, 'picture.png'), target_format: 'webp' } })) as CallToolResult;
      const { path } = converted.structuredContent as { path: string };
      expect(path.startsWith(join(dir, 'out'))).toBe(true);
      expect(readFileSync(path).subarray(8, 12).toString()).toBe('WEBP');
    } finally {
      await client.close();
    }
  });

  it('Streamable HTTP (--http <port>): a session and tool calls; local paths are refused there; a result is read as a resource', async () => {
    const port = await freePort();
    const server = await startBuiltHttpServer(['--http', String(port)], env());
    try {
      const client = new Client({ name: 'http-test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)));
      const formats = (await client.callTool({ name: 'list_output_formats', arguments: { format: 'wav' } })) as CallToolResult;
      expect(formats.structuredContent).toMatchObject({ format: 'wav', category: 'audio' });
      const byPath = (await client.callTool({ name: 'detect_file_type', arguments: { path: join(dir, 'picture.png') } })) as CallToolResult;
      expect(byPath.isError).toBe(true);
      expect((byPath.content[0] as { text: string }).text).toContain('only over the stdio transport');
      const converted = (await client.callTool({ name: 'convert_and_download', arguments: { content_base64: TINY_PNG.toString('base64'), filename: 'dot.png', target_format: 'webp' } })) as CallToolResult;
      await expectWebpResource(client, converted);
      await client.close();
    } finally {
      await server.stop();
    }
  });

  it('remote-style Streamable HTTP (bound off loopback, bearer token, listed host names): a file given by url is converted and read back as a resource', async () => {
    const port = await freePort();
    const token = randomBytes(32).toString('hex');
    const remote = {
      ...env(),
      FILESHIFT_MCP_TOKEN: token,
      FILESHIFT_MCP_ALLOWED_HOSTS: '127.0.0.1',
    };
    const server = await startBuiltHttpServer(['--http', String(port), '--host', '0.0.0.0'], remote);
    try {
      const url = new URL(`http://127.0.0.1:${port}/mcp`);
      await expect(new Client({ name: 'no-token', version: '1.0.0' }).connect(new StreamableHTTPClientTransport(url))).rejects.toThrow(/401|Authentication required/);
      const client = new Client({ name: 'remote-test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
      const converted = (await client.callTool({ name: 'convert_and_download', arguments: { url: `http://127.0.0.1:${filePort}/holiday.png`, target_format: 'webp' } })) as CallToolResult;
      expect(converted.isError, JSON.stringify(converted.content)).toBeFalsy();
      expect(converted.content.some((item) => item.type === 'resource_link')).toBe(true);
      await expectWebpResource(client, converted);
      await client.close();
    } finally {
      await server.stop();
    }
  });

  it('refuses a bad configuration at start with one line per problem', async () => {
    const child = spawn(process.execPath, [BUILT_SERVER, '--http', 'eighty'], { env: { PATH: process.env.PATH ?? '', FILESHIFT_BUDGET_USDC: 'lots' }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (chunk) => (stderr += chunk));
    const code = await new Promise((resolve) => child.once('exit', resolve));
    expect(code).toBe(78);
    expect(stderr).toContain('FILESHIFT_BUDGET_USDC: "lots" is not a USDC amount');
    expect(stderr).toContain('--http: "eighty" is not a port number');
  });

  it('refuses a wrong keystore password at start with the configuration exit code and one line', async () => {
    const keystore = join(dir, 'wallet.json');
    writeFileSync(keystore, JSON.stringify(encryptKeystore(service.devChain.payerPrivateKey, 'right', { n: 1024 })));
    const { FILESHIFT_WALLET_PRIVATE_KEY: _unused, ...withoutKey } = env();
    const child = spawn(process.execPath, [BUILT_SERVER], { env: { ...withoutKey, FILESHIFT_WALLET_KEYSTORE: keystore, FILESHIFT_WALLET_KEYSTORE_PASSWORD: 'wrong' }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (chunk) => (stderr += chunk));
    expect(await new Promise((resolve) => child.once('exit', resolve))).toBe(78);
    expect(stderr.split('\n').filter((line) => line.startsWith('  - '))).toEqual(['  - FILESHIFT_WALLET_KEYSTORE: wrong keystore password (or a damaged keystore)']);
  });
});

