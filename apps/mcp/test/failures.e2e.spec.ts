import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TINY_PNG } from './support/fixtures.js';
import { call, McpHarness, structured, text, untilDone } from './support/mcp-harness.js';

describe('failures are isError results with a way forward, and the same server keeps serving', () => {
  let harness: McpHarness;
  beforeAll(async () => void (harness = await McpHarness.start()));
  afterAll(async () => harness?.stop());

  /** The same server still answers a further (free, local) tool call. */
  async function expectStillServing(client: Client): Promise<void> {
    const status = await call(client, 'wallet_status');
    expect(status.isError).toBeFalsy();
    expect(structured(status)).toMatchObject({ address: harness.service.devChain.payerAddress });
  }

  it('a bad path', async () => {
    const client = await harness.connect(harness.context());
    const missing = await call(client, 'detect_file_type', { path: join(harness.dir, 'nope.png') });
    expect(missing.isError).toBe(true);
    expect(text(missing)).toContain('No readable file at');
    await expectStillServing(client);
  });

  it('a failed job: isError, naming the job fee paid and the job', async () => {
    const client = await harness.connect(harness.context());
    const corrupt = Buffer.concat([TINY_PNG.subarray(0, 40), Buffer.alloc(200, 7)]);
    const failed = await call(client, 'convert_and_download', { content_base64: corrupt.toString('base64'), filename: 'broken.png', target_format: 'webp' });
    expect(failed.isError).toBe(true);
    expect(text(failed)).toMatch(/^Job \S+ was started and its fee of 0\.002000 USDC was paid on local anvil dev chain \(eip155:31337\), tx 0x[0-9a-f]+\. The conversion failed \(unsupported_or_corrupt_input\)/);
    await expectStillServing(client);
  });

  it('the service down, through a paid tool: nothing paid; wallet_status still answers with the local facts', async () => {
    const offline = harness.context({ FILESHIFT_URL: 'http://127.0.0.1:9' });
    const client = await harness.connect(offline);
    const before = await harness.payerBalance();
    const down = await call(client, 'detect_file_type', { path: harness.png });
    expect(down.isError).toBe(true);
    expect(text(down)).toMatch(/^The Fileshift service at http:\/\/127\.0\.0\.1:9 is not reachable/);
    expect(offline.ledger.records()).toHaveLength(0);
    expect(await harness.payerBalance()).toBe(before);

    const status = await call(client, 'wallet_status');
    expect(status.isError).toBeFalsy();
    expect(status.structuredContent).toMatchObject({
      address: harness.service.devChain.payerAddress,
      spent_usdc: '0.000000',
      budget_left_usdc: '1.000000',
      balances: null,
      prices: null,
      service_unavailable: expect.stringMatching(/not reachable/),
    });
    expect(text(status)).toContain('Balances and prices are unavailable');
  });

  it('a result that cannot be saved after paying: isError saying that buying again is free, and it is', async () => {
    const blocked = join(harness.dir, 'not-a-directory');
    writeFileSync(blocked, 'a file where the output directory should be');
    const client = await harness.connect(harness.context({ FILESHIFT_OUTPUT_DIR: blocked }));
    const jobId = structured<{ job_id: string }>(await call(client, 'convert_file', { path: harness.png, target_format: 'webp' })).job_id;
    await untilDone(client, jobId);
    const unsaved = await call(client, 'purchase_result', { job_id: jobId });
    expect(unsaved.isError).toBe(true);
    expect(text(unsaved)).toMatch(new RegExp(`^The result of job ${jobId} was bought but not saved to ${blocked}: .*It was paid: 0\\.020000 USDC on local anvil dev chain \\(eip155:31337\\), tx 0x[0-9a-f]+\\. Calling purchase_result with job_id ${jobId} again is free`));
    await expectStillServing(client);

    const elsewhere = await harness.connect(harness.context());
    const saved = await call(elsewhere, 'purchase_result', { job_id: jobId });
    expect(saved.structuredContent).toMatchObject({ price_paid_usdc: null });
    expect(existsSync(structured<{ path: string }>(saved).path)).toBe(true);
  });
});
