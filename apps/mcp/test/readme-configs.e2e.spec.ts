import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encryptKeystore } from '@fileshift/agent-wallet';
import { freePort } from '@fileshift/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_SERVER, type BuiltHttpServer, startBuiltHttpServer, UNFUNDED_KEY } from './support/built-http-server.js';
import { throughProxy } from './support/proxy-fetch.js';

const README = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const WALLET_ADDRESS = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
/** No service behind the servers: wallet_status answers from the local wallet (and says the service is down). */
const NO_SERVICE = 'http://127.0.0.1:9';

interface ServerEntry {
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  url?: string;
  headers?: Record<string, string>;
}

/** Every `mcpServers.fileshift` entry of the README's JSON snippets, in order. */
const entries: ServerEntry[] = [...README.matchAll(/```json\n([\s\S]*?)```/g)].map((match) => (JSON.parse(match[1]!) as { mcpServers: { fileshift: ServerEntry } }).mcpServers.fileshift);
const find = (what: string, test: (entry: ServerEntry) => boolean) => {
  const found = entries.filter(test);
  if (found.length !== 1) throw new Error(`expected one README snippet for ${what}, found ${found.length}`);
  return found[0]!;
};

/** The remote start command of the README: its FILESHIFT_* variables (the token aside) and its flags. */
function remoteStartCommand(): { env: Record<string, string>; args: string[] } {
  const block = /```sh\n(export FILESHIFT_MCP_TOKEN[\s\S]*?)```/.exec(README)?.[1];
  if (!block) throw new Error('no remote start command in the README');
  const env = Object.fromEntries([...block.matchAll(/\b(FILESHIFT_\w+)=(\S+)/g)].filter(([, , value]) => !value!.startsWith('$(')).map(([, name, value]) => [name!, value!]));
  return { env, args: /node apps\/mcp\/dist\/main\.js (.+)$/m.exec(block)![1]!.trim().split(/\s+/) };
}

async function walletStatusOver(transport: StreamableHTTPClientTransport | StdioClientTransport) {
  const client = new Client({ name: 'readme-test', version: '1.0.0' });
  await client.connect(transport);
  try {
    const result = await client.callTool({ name: 'wallet_status', arguments: {} });
    expect(result.isError).toBeFalsy();
    return result.structuredContent as Record<string, unknown>;
  } finally {
    await client.close();
  }
}

describe('the client configurations of the README, each run against the built server', () => {
  let dir: string;
  let keystore: string;
  let token: string;
  let remote: BuiltHttpServer;
  let remotePort: number;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mcp-readme-'));
    keystore = join(dir, 'agent-wallet.json');
    token = 'd'.repeat(64);
    // The README's remote start command, with a test keystore (its password as the README writes it) and a free port.
    const start = remoteStartCommand();
    expect(start.args).toEqual(['--http', '8808', '--host', '0.0.0.0']);
    writeFileSync(keystore, JSON.stringify(encryptKeystore(UNFUNDED_KEY, start.env.FILESHIFT_WALLET_KEYSTORE_PASSWORD!, { n: 1024 })));
    remotePort = await freePort();
    remote = await startBuiltHttpServer(
      start.args.map((arg) => (arg === '8808' ? String(remotePort) : arg)),
      { ...start.env, FILESHIFT_WALLET_KEYSTORE: keystore, FILESHIFT_MCP_TOKEN: token, FILESHIFT_URL: NO_SERVICE, FILESHIFT_OUTPUT_DIR: join(dir, 'remote-out'), FILESHIFT_LEDGER: join(dir, 'remote-ledger.jsonl') },
    );
  });
  afterAll(async () => {
    await remote?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('has the four snippets: Claude Desktop and Cursor, local and remote', () => {
    expect(entries).toHaveLength(4);
  });

  it('Claude Desktop (stdio): its env is the configuration (budget, approval threshold, ~ paths)', async () => {
    const entry = find('Claude Desktop (stdio)', (e) => e.command === 'node');
    const home = join(dir, 'home');
    // The snippet's allowed roots (~/Documents, ~/Downloads) must exist: a root that is not a directory stops the server.
    for (const root of ['Documents', 'Downloads']) mkdirSync(join(home, root), { recursive: true });
    const env: Record<string, string> = { ...entry.env!, FILESHIFT_WALLET_KEYSTORE: keystore, FILESHIFT_URL: NO_SERVICE };
    writeFileSync(keystore, JSON.stringify(encryptKeystore(UNFUNDED_KEY, env.FILESHIFT_WALLET_KEYSTORE_PASSWORD!, { n: 1024 })));
    const status = await walletStatusOver(new StdioClientTransport({ command: process.execPath, args: [BUILT_SERVER], env: { PATH: process.env.PATH ?? '', HOME: home, ...env }, stderr: 'pipe' }));
    expect(status).toMatchObject({ address: WALLET_ADDRESS, budget_usdc: '1.000000', approval_threshold_usdc: '0.030000' });
    expect(statSync(join(home, 'Downloads', 'fileshift')).isDirectory()).toBe(true);
  });

  it('Cursor, local: the url of a server started with --http 8808', async () => {
    const entry = find('Cursor (local HTTP)', (e) => e.url !== undefined && e.headers === undefined);
    const port = await freePort();
    const local = await startBuiltHttpServer(['--http', String(port)], { FILESHIFT_WALLET_PRIVATE_KEY: UNFUNDED_KEY, FILESHIFT_URL: NO_SERVICE, FILESHIFT_OUTPUT_DIR: join(dir, 'out'), FILESHIFT_LEDGER: join(dir, 'ledger.jsonl') });
    try {
      const url = new URL(entry.url!.replace(':8808/', `:${port}/`));
      expect(await walletStatusOver(new StreamableHTTPClientTransport(url))).toMatchObject({ address: WALLET_ADDRESS });
    } finally {
      await local.stop();
    }
  });

  it('Cursor, remote: url and Authorization header (${env:…} filled) reach the remote server; without the header it refuses', async () => {
    const entry = find('Cursor (remote)', (e) => e.url !== undefined && e.headers !== undefined);
    const headers = Object.fromEntries(Object.entries(entry.headers!).map(([name, value]) => [name, value.replace('${env:FILESHIFT_MCP_TOKEN}', token)]));
    const fetch = throughProxy(entry.url!, remotePort);
    expect(await walletStatusOver(new StreamableHTTPClientTransport(new URL(entry.url!), { fetch, requestInit: { headers } }))).toMatchObject({ address: WALLET_ADDRESS });
    await expect(new Client({ name: 'no-token', version: '1' }).connect(new StreamableHTTPClientTransport(new URL(entry.url!), { fetch }))).rejects.toThrow(/401|Authentication required/);
  });

  it('Claude Desktop, remote: what mcp-remote sends (its url and --header, from the env) reaches the remote server', async () => {
    const entry = find('Claude Desktop (mcp-remote)', (e) => e.command === 'npx');
    expect(entry.args![0]).toBe('mcp-remote');
    const [url, flag, header] = entry.args!.slice(1).map((arg) => arg.replace(/\$\{(\w+)\}/g, (_, name: string) => entry.env![name]!.replace('<the token>', token)));
    expect(flag).toBe('--header');
    const colon = header!.indexOf(':');
    const fetch: FetchLike = throughProxy(url!, remotePort);
    const requestInit = { headers: { [header!.slice(0, colon)]: header!.slice(colon + 1) } };
    expect(await walletStatusOver(new StreamableHTTPClientTransport(new URL(url!), { fetch, requestInit }))).toMatchObject({ address: WALLET_ADDRESS });
  });
});
