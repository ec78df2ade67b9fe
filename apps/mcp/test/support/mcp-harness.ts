import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type LiveService, startLiveService } from '@fileshift/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createPublicClient, erc20Abi, http } from 'viem';
import { loadMcpConfig } from '../../src/config.js';
import { createServer } from '../../src/create-server.js';
import { FileshiftContext } from '../../src/fileshift-context.js';
import { solanaTokenBalance } from '../../src/solana-balance.js';
import { TINY_PNG } from './fixtures.js';

/** The live service on its dev chain, a scratch directory with a PNG, and MCP servers wired to them through in-process clients. */
export class McpHarness {
  private constructor(
    readonly service: LiveService,
    readonly dir: string,
  ) {}

  /** `serviceEnv`: the service's own settings, e.g. OUTBOUND_ALLOW_HOSTS and OUTBOUND_ALLOW_PORTS to let it fetch from a local server. */
  static async start(serviceEnv: Record<string, string> = {}): Promise<McpHarness> {
    const service = await startLiveService(serviceEnv);
    const dir = mkdtempSync(join(tmpdir(), 'mcp-test-'));
    writeFileSync(join(dir, 'picture.png'), TINY_PNG);
    return new McpHarness(service, dir);
  }

  get png(): string {
    return join(this.dir, 'picture.png');
  }

  async stop(): Promise<void> {
    await this.service.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** A context with its own ledger and output directory (unless `env` names them), local paths allowed in the scratch directory; `env` overrides the configuration. */
  context(env: Record<string, string> = {}): FileshiftContext {
    const name = Math.random().toString(36).slice(2);
    const loaded = loadMcpConfig([], {
      FILESHIFT_URL: this.service.baseUrl,
      FILESHIFT_WALLET_PRIVATE_KEY: this.service.devChain.payerPrivateKey,
      FILESHIFT_OUTPUT_DIR: join(this.dir, `out-${name}`),
      FILESHIFT_LEDGER: join(this.dir, `ledger-${name}.jsonl`),
      FILESHIFT_ALLOWED_ROOTS: this.dir,
      ...env,
    });
    if (!loaded.ok) throw new Error(loaded.problems.join('; '));
    return new FileshiftContext(loaded.config);
  }

  /** A client connected to a new MCP server (a session) on `shared`. */
  async connect(shared: FileshiftContext, options: ConstructorParameters<typeof Client>[1] = {}): Promise<Client> {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await createServer(shared, { allowLocalPaths: true }).connect(serverSide);
    const client = new Client({ name: 'test', version: '1.0.0' }, options);
    await client.connect(clientSide);
    return client;
  }

  /** A context whose wallet holds the Solana dev chain's funded payer key, and no EVM key unless `env` gives one. */
  solanaContext(env: Record<string, string> = {}): FileshiftContext {
    return this.context({ FILESHIFT_WALLET_PRIVATE_KEY: '', FILESHIFT_WALLET_SOLANA_KEY: JSON.stringify(this.service.solanaDevChain.payerSecretKey), ...env });
  }

  /** The Solana payer's test USDC, read from the local Solana. */
  async solanaPayerBalance(): Promise<bigint> {
    const { rpcUrl, payerAddress, usdc } = this.service.solanaDevChain;
    const balance = await solanaTokenBalance(rpcUrl, payerAddress, usdc);
    if (balance === null) throw new Error(`the Solana payer's USDC balance could not be read from ${rpcUrl}`);
    return balance;
  }

  payerBalance(): Promise<bigint> {
    const { rpcUrl, usdc, payerAddress } = this.service.devChain;
    return createPublicClient({ transport: http(rpcUrl) }).readContract({ address: usdc, abi: erc20Abi, functionName: 'balanceOf', args: [payerAddress] });
  }
}

export const call = async (client: Client, name: string, args: Record<string, unknown> = {}) => (await client.callTool({ name, arguments: args })) as CallToolResult;
export const text = (result: CallToolResult) => (result.content[0] as { text: string }).text;
export const structured = <T = Record<string, unknown>>(result: CallToolResult) => result.structuredContent as T;

/** Polls (free) until the job is done. */
export async function untilDone(client: Client, jobId: string): Promise<void> {
  while (structured<{ status: string }>(await call(client, 'get_conversion_status', { job_id: jobId })).status !== 'done') {
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
