import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type LiveService, startLiveService } from '@fileshift/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { type CallToolResult, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { createPublicClient, erc20Abi, http } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMcpConfig } from '../src/config.js';
import { createServer } from '../src/create-server.js';
import { FileshiftContext } from '../src/fileshift-context.js';
import { TINY_PNG } from './support/fixtures.js';

const TOOLS = ['convert_and_download', 'convert_file', 'delete_job', 'detect_file_type', 'get_conversion_status', 'list_output_formats', 'purchase_result', 'wallet_status'];

describe('MCP server through an in-process client, against the live service on the dev chain', () => {
  let service: LiveService;
  let dir: string;
  let png: string;

  /** A context with its own ledger and output directory; `env` overrides the configuration. */
  function context(env: Record<string, string> = {}) {
    const name = Math.random().toString(36).slice(2);
    const loaded = loadMcpConfig([], {
      FILESHIFT_URL: service.baseUrl,
      FILESHIFT_WALLET_PRIVATE_KEY: service.devChain.payerPrivateKey,
      FILESHIFT_OUTPUT_DIR: join(dir, `out-${name}`),
      FILESHIFT_LEDGER: join(dir, `ledger-${name}.jsonl`),
      ...env,
    });
    if (!loaded.ok) throw new Error(loaded.problems.join('; '));
    return new FileshiftContext(loaded.config);
  }

  async function connect(shared: FileshiftContext, capabilities: ConstructorParameters<typeof Client>[1] = {}) {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await createServer(shared, { allowLocalPaths: true }).connect(serverSide);
    const client = new Client({ name: 'test', version: '1.0.0' }, capabilities);
    await client.connect(clientSide);
    return client;
  }

  const call = async (client: Client, name: string, args: Record<string, unknown> = {}) => (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = (result: CallToolResult) => (result.content[0] as { text: string }).text;
  const payerBalance = () =>
    createPublicClient({ transport: http(service.devChain.rpcUrl) }).readContract({ address: service.devChain.usdc, abi: erc20Abi, functionName: 'balanceOf', args: [service.devChain.payerAddress] });

  beforeAll(async () => {
    service = await startLiveService();
    dir = mkdtempSync(join(tmpdir(), 'mcp-test-'));
    png = join(dir, 'picture.png');
    writeFileSync(png, TINY_PNG);
  });
  afterAll(async () => {
    await service?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists every tool with a title, a description, input and output schemas and annotations', async () => {
    const { tools } = await (await connect(context())).listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(TOOLS);
    for (const tool of tools) {
      expect(tool.title, tool.name).toBeTruthy();
      expect(tool.description!.length, tool.name).toBeGreaterThan(40);
      expect(tool.inputSchema.type, tool.name).toBe('object');
      expect(tool.outputSchema?.type, tool.name).toBe('object');
      expect(Object.keys(tool.annotations ?? {}).sort(), tool.name).toEqual(['destructiveHint', 'idempotentHint', 'openWorldHint', 'readOnlyHint']);
    }
    expect(tools.find((tool) => tool.name === 'delete_job')!.annotations).toMatchObject({ destructiveHint: true, readOnlyHint: false });
    expect(tools.find((tool) => tool.name === 'wallet_status')!.annotations).toMatchObject({ readOnlyHint: true });
  });

  it('convert_and_download turns a PNG into a webp file on disk, paying exactly the fees, with progress', async () => {
    const shared = context();
    const client = await connect(shared);
    const before = await payerBalance();
    const progress: number[] = [];
    const result = (await client.callTool({ name: 'convert_and_download', arguments: { path: png, target_format: 'webp', embed: true } }, undefined, {
      onprogress: (update) => progress.push(update.progress),
    })) as CallToolResult;
    expect(result.isError, text(result)).toBeFalsy();
    const saved = result.structuredContent as { path: string; price_paid_usdc: string; job_fee_usdc: string; mime_type: string };
    expect(saved).toMatchObject({ mime_type: 'image/webp', price_paid_usdc: '0.020000', job_fee_usdc: '0.002000' });
    const bytes = readFileSync(saved.path);
    expect(bytes.subarray(8, 12).toString()).toBe('WEBP');
    expect(result.content[1]).toMatchObject({ type: 'resource', resource: { mimeType: 'image/webp', blob: bytes.toString('base64') } });
    expect(progress.at(-1)).toBe(100);
    expect(await payerBalance()).toBe(before - 22_000n);

    const status = await call(client, 'wallet_status');
    expect(status.structuredContent).toMatchObject({
      address: service.devChain.payerAddress,
      spent_usdc: '0.022',
      budget_left_usdc: '0.978',
      balances: [{ network: service.devChain.network, balance_usdc: expect.any(String) }],
    });
    const onChain = (status.structuredContent as { balances: Array<{ balance_usdc: string }> }).balances[0]!.balance_usdc;
    expect(BigInt(Math.round(Number(onChain) * 1e6))).toBe(await payerBalance());
  });

  it('detects, lists formats, and runs a job step by step: convert_file, status, purchase_result, delete_job', async () => {
    const client = await connect(context());
    const detected = await call(client, 'detect_file_type', { content_base64: TINY_PNG.toString('base64'), filename: 'mystery.bin' });
    expect(detected.structuredContent).toMatchObject({ detected: true, format: 'png', paid_usdc: '0.002000' });
    const formats = await call(client, 'list_output_formats', { format: 'png' });
    expect((formats.structuredContent as { recommended: string[] }).recommended).toEqual(expect.arrayContaining(['webp']));

    const started = await call(client, 'convert_file', { path: png, target_format: 'jpg', idempotency_key: 'mcp-test-key-1' });
    const { job_id: jobId, expected_result_price_usdc: expected } = started.structuredContent as { job_id: string; expected_result_price_usdc: string };
    expect(expected).toBe('0.020000');
    let status: CallToolResult;
    do {
      await new Promise((resolve) => setTimeout(resolve, 200));
      status = await call(client, 'get_conversion_status', { job_id: jobId });
    } while ((status.structuredContent as { status: string }).status !== 'done');
    expect(status.structuredContent).toMatchObject({ result_price_usdc: '0.020000' });
    const bought = await call(client, 'purchase_result', { job_id: jobId });
    expect(bought.structuredContent).toMatchObject({ price_paid_usdc: '0.020000', mime_type: 'image/jpeg' });
    const again = await call(client, 'purchase_result', { job_id: jobId });
    expect(again.structuredContent).toMatchObject({ price_paid_usdc: null });
    expect((await call(client, 'delete_job', { job_id: jobId })).structuredContent).toMatchObject({ deleted: true });
  });

  it('refuses a purchase over the budget: isError naming the limit, nothing signed, nothing moved', async () => {
    const rich = await connect(context());
    const started = await call(rich, 'convert_file', { path: png, target_format: 'gif' });
    const jobId = (started.structuredContent as { job_id: string }).job_id;
    while ((((await call(rich, 'get_conversion_status', { job_id: jobId })).structuredContent as { status: string }).status) !== 'done') {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const poor = await connect(context({ FILESHIFT_BUDGET_USDC: '0.01' }));
    const before = await payerBalance();
    const refused = await call(poor, 'purchase_result', { job_id: jobId });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(/Payment refused \(budget\): 0\.02 USDC is over the budget left: 0\.01 of 0\.01 USDC.*Nothing was signed or paid/);
    expect(await payerBalance()).toBe(before);
  });

  it('asks the user through elicitation above the approval threshold and respects a no', async () => {
    const client = await connect(context({ FILESHIFT_APPROVAL_THRESHOLD_USDC: '0.001' }), { capabilities: { elicitation: {} } });
    const asked: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      return { action: 'accept', content: { approve: false } };
    });
    const before = await payerBalance();
    const result = await call(client, 'detect_file_type', { path: png });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('Payment refused (approval)');
    expect(asked).toEqual([expect.stringMatching(/^Pay 0\.002 USDC on eip155:31337 to 0x/)]);
    expect(await payerBalance()).toBe(before);
  });

  it('answers failures as isError results and keeps serving: bad path, failed job, service down', async () => {
    const client = await connect(context());
    const missing = await call(client, 'detect_file_type', { path: join(dir, 'nope.png') });
    expect(missing).toMatchObject({ isError: true });
    expect(text(missing)).toContain('No readable file at');
    const corrupt = Buffer.concat([TINY_PNG.subarray(0, 40), Buffer.alloc(200, 7)]);
    const failed = await call(client, 'convert_and_download', { content_base64: corrupt.toString('base64'), filename: 'broken.png', target_format: 'webp' });
    expect(text(failed)).toMatch(/^The conversion failed \(unsupported_or_corrupt_input\)/);

    const offline = await connect(context({ FILESHIFT_URL: 'http://127.0.0.1:9' }));
    const down = await call(offline, 'wallet_status');
    expect(down.isError).toBe(true);
    expect(text(down)).toMatch(/not reachable|ECONNREFUSED/);
    expect((await offline.listTools()).tools).toHaveLength(TOOLS.length);
    expect(existsSync(join(dir, 'nope.png'))).toBe(false);
  });
});
