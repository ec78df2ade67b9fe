/**
 * The hosted MCP endpoint's convert_file with several files (`contents`): joined into one result in one job, paid once
 * over the x402 MCP transport on the dev chain; the operation examples in its description; wrong shapes refused unpaid.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { handWrittenPdf } from '@fileshift/converters/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { x402Client } from '@x402/core/client';
import type { PaymentPayload, PaymentRequired } from '@x402/core/types';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_CONTENT_BYTES } from '../src/mcp-endpoint/content-input.js';
import { OPERATION_EXAMPLES } from '../src/mcp-endpoint/operation-examples.js';
import { type PaidTestApp, startPaidTestApp } from './support/paid-test-app.js';
import { payingClient } from './support/x402-payer.js';

describe('hosted MCP endpoint: convert_file joins several files given as contents (dev chain)', () => {
  let t: PaidTestApp;
  let client: Client;
  let payer: x402Client;
  const dir = mkdtempSync(join(tmpdir(), 'fileshift-mcp-joins-'));
  const alpha = handWrittenPdf(['Alpha page one', 'Alpha page two']);
  const beta = handWrittenPdf(['Beta page one', 'Beta page two', 'Beta page three']);
  const payTo = () => t.chain.usdcBalanceOf(t.chain.payTo);
  const member = (bytes: Buffer, filename: string) => ({ content_base64: bytes.toString('base64'), filename });

  const call = (name: string, args: Record<string, unknown>, payment?: PaymentPayload) =>
    client.callTool({ name, arguments: args, ...(payment ? { _meta: { 'x402/payment': payment } } : {}) }) as Promise<CallToolResult>;
  const paidCall = async (name: string, args: Record<string, unknown>) => {
    const challenge = await call(name, args);
    expect(challenge.isError, JSON.stringify(challenge.structuredContent)).toBe(true);
    return call(name, args, await payer.createPaymentPayload(challenge.structuredContent as unknown as PaymentRequired));
  };

  beforeAll(async () => {
    t = await startPaidTestApp({ payerIndex: 4 });
    payer = payingClient(t.chain, privateKeyToAccount(t.chain.payerPrivateKeys[4]!));
    client = new Client({ name: 'fileshift-joins-e2e', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${t.baseUrl}/mcp`)));
  });
  afterAll(async () => {
    await client?.close();
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('describes contents and one example per operation', async () => {
    const tool = (await client.listTools()).tools.find((candidate) => candidate.name === 'convert_file')!;
    expect(tool.inputSchema.properties?.contents).toMatchObject({ type: 'array', minItems: 2, maxItems: 50 });
    for (const example of OPERATION_EXAMPLES) expect(tool.description).toContain(`- ${example}`);
    for (const word of ['merge', 'split', 'password', 'decrypt', 'watermark', 'rotate', 'flatten', 'metadata', 'remove GPS', 'crop', 'grayscale', 'trim', 'frame']) {
      expect(tool.description!.toLowerCase(), word).toContain(word.toLowerCase());
    }
  });

  it('merges two PDFs given as contents into one, in order, for one job fee', async () => {
    const before = await payTo();
    const started = await paidCall('convert_file', { contents: [member(alpha, 'alpha.pdf'), member(beta, 'beta.pdf')], target_format: 'pdf' });
    expect(started.isError, JSON.stringify(started.structuredContent)).toBeFalsy();
    const { job_id: jobId } = started.structuredContent as { job_id: string };
    expect(await payTo()).toBe(before + BigInt(t.config.prices.jobAtomic));
    const status = await call('get_conversion_status', { job_id: jobId, wait_seconds: 30 });
    expect(status.structuredContent).toMatchObject({ status: 'done', input_files: 2, input_file_size_bytes: alpha.length + beta.length });
    const bought = await paidCall('purchase_result', { job_id: jobId });
    const { download_url: url } = bought.structuredContent as { download_url: string };
    const merged = join(dir, 'merged.pdf');
    writeFileSync(merged, Buffer.from(await (await fetch(url)).arrayBuffer()));
    // qpdf and poppler, not ours, read it: five pages, the first file's first.
    expect(execFileSync('qpdf', ['--show-npages', merged], { encoding: 'utf8' }).trim()).toBe('5');
    const text = execFileSync('pdftotext', [merged, '-'], { encoding: 'utf8' });
    expect(text.indexOf('Beta page three')).toBeGreaterThan(text.indexOf('Alpha page two'));
  });

  it('refuses, unpaid and before any challenge: one file in contents, contents beside content_base64, a member without a name, contents past the limit together', async () => {
    const before = await payTo();
    const one = await call('convert_file', { contents: [member(alpha, 'alpha.pdf')], target_format: 'pdf' });
    expect(one.structuredContent).toMatchObject({ error: { status: 422, details: { fields: [{ field: 'contents' }] } } });
    const both = await call('convert_file', { contents: [member(alpha, 'a.pdf'), member(beta, 'b.pdf')], content_base64: alpha.toString('base64'), filename: 'a.pdf', target_format: 'pdf' });
    expect(both.structuredContent).toMatchObject({ error: { status: 422 } });
    const unnamed = await call('convert_file', { contents: [member(alpha, 'a.pdf'), { content_base64: beta.toString('base64') }], target_format: 'pdf' });
    expect(unnamed.structuredContent).toMatchObject({ error: { status: 422, details: { fields: [{ field: 'contents[1].filename' }] } } });
    // Each within the limit, together past it (and still within the JSON body the endpoint reads).
    const half = Buffer.alloc(MAX_CONTENT_BYTES / 2 + 50 * 1024, 1);
    const together = await call('convert_file', { contents: [member(half, 'a.bin'), member(half, 'b.bin')], target_format: 'zip' });
    expect(together.structuredContent).toMatchObject({ error: { status: 413, details: { max_bytes: MAX_CONTENT_BYTES } } });
    expect(await payTo()).toBe(before);
  });

  it('checks large base64 content without overflowing: 6 MiB of zeros is read, and refused as no format (422), not an internal error', async () => {
    // The base64 check was a repeated-group pattern, which overflowed the stack from about 4 MiB of content.
    const zeros = await call('convert_file', { content_base64: Buffer.alloc(6 * 1024 * 1024).toString('base64'), filename: 'zeros.bin', target_format: 'jpg' });
    expect(zeros.structuredContent).toMatchObject({ error: { status: 422 } });
  });
});
