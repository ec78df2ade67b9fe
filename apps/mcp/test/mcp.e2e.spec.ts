import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { recordVerifier } from '@fileshift/sdk';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TINY_PNG } from './support/fixtures.js';
import { call, McpHarness, structured, text, untilDone } from './support/mcp-harness.js';

const TOOLS = ['convert_and_download', 'convert_file', 'delete_job', 'detect_file_type', 'get_conversion_status', 'list_formats', 'list_output_formats', 'purchase_result', 'wallet_status'];

describe('MCP server through an in-process client, against the live service on the dev chain', () => {
  let harness: McpHarness;
  beforeAll(async () => void (harness = await McpHarness.start()));
  afterAll(async () => harness?.stop());

  it('lists every tool with a title, a description without hard-coded prices, input and output schemas and annotations', async () => {
    const { tools } = await (await harness.connect(harness.context())).listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(TOOLS);
    for (const tool of tools) {
      expect(tool.title, tool.name).toBeTruthy();
      expect(tool.description!.length, tool.name).toBeGreaterThan(40);
      expect(tool.description, tool.name).not.toMatch(/\d+\.\d+ USDC/);
      expect(tool.inputSchema.type, tool.name).toBe('object');
      expect(tool.outputSchema?.type, tool.name).toBe('object');
      expect(Object.keys(tool.annotations ?? {}).sort(), tool.name).toEqual(['destructiveHint', 'idempotentHint', 'openWorldHint', 'readOnlyHint']);
    }
    const annotations = (name: string) => tools.find((tool) => tool.name === name)!.annotations;
    expect(annotations('delete_job')).toMatchObject({ destructiveHint: true, readOnlyHint: false });
    expect(annotations('wallet_status')).toMatchObject({ readOnlyHint: true });
    expect(annotations('convert_file')).toMatchObject({ idempotentHint: false });
  });

  it('convert_and_download turns a PNG into a webp file on disk, reporting and paying exactly the fees, with strictly increasing progress', async () => {
    const client = await harness.connect(harness.context());
    const before = await harness.payerBalance();
    const progress: number[] = [];
    const result = (await client.callTool({ name: 'convert_and_download', arguments: { path: harness.png, target_format: 'webp', embed: true } }, undefined, {
      onprogress: (update) => progress.push(update.progress),
    })) as CallToolResult;
    expect(result.isError, text(result)).toBeFalsy();
    const saved = structured<{ path: string; job_id: string; resource_uri: string }>(result);
    expect(saved).toMatchObject({
      mime_type: 'image/webp',
      price_paid_usdc: '0.020000',
      job_fee_usdc: '0.002000',
      receipt: { network: harness.service.devChain.network, payer: harness.service.devChain.payerAddress, amount_usdc: '0.020000', transaction: expect.stringMatching(/^0x/) },
    });
    const bytes = readFileSync(saved.path);
    expect(bytes.subarray(8, 12).toString()).toBe('WEBP');
    // What was bought, signed by the service: the saved file is the one the record names; the receipt verifies.
    const signed = structured<{ delivery_record: { jws: string; output: { sha256: string } }; receipt: { signed_receipt: string; transaction: string } }>(result);
    expect(signed.delivery_record.output.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
    const verifier = recordVerifier(harness.service.baseUrl, fetch);
    expect(await verifier.verify(signed.delivery_record.jws)).toMatchObject({ jobId: saved.job_id, output: { sha256: signed.delivery_record.output.sha256 } });
    expect(await verifier.verify(signed.receipt.signed_receipt)).toMatchObject({ transaction: signed.receipt.transaction });
    expect(result.content[1]).toMatchObject({ type: 'resource_link', uri: saved.resource_uri, mimeType: 'image/webp', size: bytes.length });
    expect(result.content[2]).toEqual({ type: 'image', mimeType: 'image/webp', data: bytes.toString('base64') });
    expect(progress.length).toBeGreaterThan(1);
    expect(progress.every((value, index) => index === 0 || value > progress[index - 1]!), progress.join(', ')).toBe(true);
    expect(progress.at(-1)).toBe(100);
    expect(await harness.payerBalance()).toBe(before - 22_000n);

    const status = await call(client, 'wallet_status');
    expect(status.structuredContent).toMatchObject({
      address: harness.service.devChain.payerAddress,
      spent_usdc: '0.022000',
      budget_left_usdc: '0.978000',
      balances: [{ network: harness.service.devChain.network, asset: harness.service.devChain.usdc, balance_usdc: expect.any(String) }],
      prices: { detect_file_type_usdc: '0.002000', conversion_job_fee_usdc: '0.002000', result_usdc: [{ price_usdc: '0.020000' }, { price_usdc: '0.040000' }] },
      service_unavailable: null,
    });
    const onChain = structured<{ balances: Array<{ balance_usdc: string }> }>(status).balances[0]!.balance_usdc;
    expect(onChain).toMatch(/^\d+\.\d{6}$/);
    expect(BigInt(onChain.replace('.', ''))).toBe(await harness.payerBalance());
  });

  it('detects, lists formats, and runs a job step by step: convert_file, status, purchase_result (with its receipt), delete_job (twice: idempotent)', async () => {
    const client = await harness.connect(harness.context());
    const detected = await call(client, 'detect_file_type', { content_base64: TINY_PNG.toString('base64'), filename: 'mystery.bin' });
    expect(detected.structuredContent).toMatchObject({ detected: true, format: 'png', paid_usdc: '0.002000', transaction: expect.stringMatching(/^0x/) });
    expect(text(detected)).toMatch(/Paid 0\.002000 USDC on local anvil dev chain \(eip155:31337\), tx 0x[0-9a-f]+\./);
    expect(detected.structuredContent).toMatchObject({ compatibility: { status: 'yes', reason: expect.not.stringContaining('as well') } });
    // Repeated with its payment_id (a retry after a lost answer): the same answer and transaction, charged once.
    const paymentId = structured<{ payment_id: string }>(detected).payment_id;
    expect(paymentId).toMatch(/^pay_[0-9a-f]{32}$/);
    const before = await harness.payerBalance();
    const repeated = await call(client, 'detect_file_type', { content_base64: TINY_PNG.toString('base64'), filename: 'mystery.bin', payment_id: paymentId });
    expect(repeated.structuredContent).toMatchObject({ format: 'png', payment_id: paymentId, transaction: structured<{ transaction: string }>(detected).transaction });
    expect(await harness.payerBalance()).toBe(before);
    const misused = await call(client, 'detect_file_type', { content_base64: TINY_PNG.toString('base64'), filename: 'other.bin', payment_id: paymentId });
    expect(misused.isError).toBe(true);
    expect(text(misused)).toMatch(/payment identifier was used for a different request/);
    // The first entry of an Office Open XML package does not say which kind it is: the tool says what else it may be.
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE('[Content_Types].xml'.length, 26);
    const ooxml = Buffer.concat([local, Buffer.from('[Content_Types].xml'), Buffer.alloc(400, 0x5a)]);
    const tie = await call(client, 'detect_file_type', { content_base64: ooxml.toString('base64'), filename: 'upload' });
    expect(tie.structuredContent).toMatchObject({ format: 'docx', compatibility: { reason: expect.stringContaining('fit xlsx, pptx') } });
    expect(text(tie)).toContain('fit xlsx, pptx');
    const formats = await call(client, 'list_output_formats', { format: 'png' });
    expect(structured<{ recommended: string[] }>(formats).recommended).toEqual(expect.arrayContaining(['webp']));

    const started = await call(client, 'convert_file', { path: harness.png, target_format: 'jpg', idempotency_key: 'mcp-test-key-1' });
    expect(started.structuredContent).toMatchObject({ idempotency_key: 'mcp-test-key-1', fee_paid_usdc: '0.002000', expected_result_price_usdc: '0.020000' });
    const jobId = structured<{ job_id: string }>(started).job_id;
    const retried = await call(client, 'convert_file', { path: harness.png, target_format: 'jpg', idempotency_key: 'mcp-test-key-1' });
    expect(retried.structuredContent).toMatchObject({ job_id: jobId, fee_paid_usdc: null });
    await untilDone(client, jobId);
    expect((await call(client, 'get_conversion_status', { job_id: jobId })).structuredContent).toMatchObject({ result_price_usdc: '0.020000' });

    const bought = await call(client, 'purchase_result', { job_id: jobId });
    expect(bought.structuredContent).toMatchObject({
      price_paid_usdc: '0.020000',
      mime_type: 'image/jpeg',
      receipt: { network: harness.service.devChain.network, payer: harness.service.devChain.payerAddress, amount_usdc: '0.020000', settled_at: expect.any(String) },
    });
    const receipt = structured<{ transaction: string; receipt: { transaction: string } }>(bought);
    expect(receipt.receipt.transaction).toBe(receipt.transaction);
    const again = await call(client, 'purchase_result', { job_id: jobId });
    expect(again.structuredContent).toMatchObject({ price_paid_usdc: null, receipt: { transaction: receipt.transaction, amount_usdc: '0.020000' } });
    // The free second download carries the record of the sale, unchanged.
    expect(structured<{ delivery_record: { jws: string } }>(again).delivery_record.jws).toBe(structured<{ delivery_record: { jws: string } }>(bought).delivery_record.jws);
    expect((await call(client, 'delete_job', { job_id: jobId })).structuredContent).toMatchObject({ deleted: true, already_gone: false });
    // Idempotent as annotated: deleting again is not an error.
    const deletedAgain = await call(client, 'delete_job', { job_id: jobId });
    expect(deletedAgain.isError, text(deletedAgain)).toBeFalsy();
    expect(deletedAgain.structuredContent).toMatchObject({ job_id: jobId, deleted: true, already_gone: true });
    expect((await call(client, 'get_conversion_status', { job_id: jobId })).isError).toBe(true);
  });

  it('convert_file without a key generates one and returns it, so that a retry pays no second fee', async () => {
    const client = await harness.connect(harness.context());
    const first = structured<{ job_id: string; idempotency_key: string }>(await call(client, 'convert_file', { path: harness.png, target_format: 'gif' }));
    expect(first.idempotency_key).toMatch(/^mcp-/);
    const retried = await call(client, 'convert_file', { path: harness.png, target_format: 'gif', idempotency_key: first.idempotency_key });
    expect(retried.structuredContent).toMatchObject({ job_id: first.job_id, fee_paid_usdc: null });
  });
});
