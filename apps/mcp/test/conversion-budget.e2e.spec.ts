import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, McpHarness, structured, text } from './support/mcp-harness.js';

describe('convert_file pays its job fee only when the result can be bought too (issue #16, live service)', () => {
  let harness: McpHarness;
  beforeAll(async () => void (harness = await McpHarness.start()));
  afterAll(async () => harness?.stop());

  it('a budget of 0.01 USDC: the 0.002 fee would fit, fee + 0.02 result do not, so nothing is paid', async () => {
    const context = harness.context({ FILESHIFT_BUDGET_USDC: '0.01' });
    const client = await harness.connect(context);
    const before = await harness.payerBalance();
    const refused = await call(client, 'convert_file', { path: harness.png, target_format: 'webp' });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(/^Payment refused \(budget\): Convert picture\.png \(\d+ bytes\) to webp: job fee 0\.002 \+ result 0\.02 = 0\.022 USDC at most, over the budget left: 0\.01 of 0\.01 USDC\. Nothing was signed or paid\./);
    expect(context.ledger.total()).toBe(0n);
    expect(await harness.payerBalance()).toBe(before);
  });

  it('above the approval threshold the user is asked once, in words, for the fee and the result; both are then paid unasked', async () => {
    const client = await harness.connect(harness.context({ FILESHIFT_APPROVAL_THRESHOLD_USDC: '0.001' }), { capabilities: { elicitation: {} } });
    const asked: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      return { action: 'accept', content: { approve: true } };
    });
    const started = await call(client, 'convert_file', { path: harness.png, target_format: 'webp' });
    expect(started.isError, text(started)).toBeFalsy();
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatch(/^Convert picture\.png \(\d+ bytes\) to webp: job fee 0\.002 \+ result 0\.02 = 0\.022 USDC at most \(the result is priced by the size of the upload\)\. Pay from the agent wallet\?$/);
    expect(asked[0]).not.toMatch(/0x[0-9a-fA-F]{40}|https?:/);
    expect(structured(started)).toMatchObject({ fee_paid_usdc: '0.002000' });
  });

  it('convert_and_download asks once for the whole conversion too', async () => {
    const client = await harness.connect(harness.context({ FILESHIFT_APPROVAL_THRESHOLD_USDC: '0.001' }), { capabilities: { elicitation: {} } });
    let asked = 0;
    client.setRequestHandler(ElicitRequestSchema, async () => (asked++, { action: 'accept', content: { approve: true } }));
    const converted = await call(client, 'convert_and_download', { path: harness.png, target_format: 'webp' });
    expect(converted.isError, text(converted)).toBeFalsy();
    expect(asked).toBe(1);
    expect(structured(converted)).toMatchObject({ job_fee_usdc: '0.002000' });
  });
});
