import { join } from 'node:path';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, McpHarness, structured, text, untilDone } from './support/mcp-harness.js';

const BASE_NETWORK = 'eip155:8453';
const BASE_USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';

describe("the agent wallet's limits through the MCP tools, against the live service on the dev chain", () => {
  let harness: McpHarness;
  beforeAll(async () => void (harness = await McpHarness.start()));
  afterAll(async () => harness?.stop());

  /** A done job, started (and its fee paid) from a context with the default limits. */
  async function doneJob(): Promise<string> {
    const rich = await harness.connect(harness.context());
    const jobId = structured<{ job_id: string }>(await call(rich, 'convert_file', { path: harness.png, target_format: 'gif' })).job_id;
    await untilDone(rich, jobId);
    return jobId;
  }

  it('refuses a purchase over the budget: isError naming the limit and what is left; nothing signed, moved or recorded', async () => {
    const jobId = await doneJob();
    const poor = harness.context({ FILESHIFT_BUDGET_USDC: '0.021' });
    const client = await harness.connect(poor);
    await call(client, 'detect_file_type', { path: harness.png });
    const spentBefore = structured<{ spent_usdc: string }>(await call(client, 'wallet_status')).spent_usdc;
    const recordsBefore = poor.ledger.records().length;
    const balanceBefore = await harness.payerBalance();

    const refused = await call(client, 'purchase_result', { job_id: jobId });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toBe('Payment refused (budget): 0.020000 USDC is over the budget left: 0.019000 of 0.021000 USDC. Nothing was signed or paid.');
    expect(await harness.payerBalance()).toBe(balanceBefore);
    expect(poor.ledger.records()).toHaveLength(recordsBefore);
    expect(spentBefore).toBe('0.002000');
    expect(structured(await call(client, 'wallet_status'))).toMatchObject({ spent_usdc: spentBefore, budget_left_usdc: '0.019000' });
  });

  it('convert_and_download refuses up front, paying nothing, when the job fee and the result do not both fit the budget', async () => {
    const poor = harness.context({ FILESHIFT_BUDGET_USDC: '0.021' });
    const client = await harness.connect(poor);
    const before = await harness.payerBalance();
    const refused = await call(client, 'convert_and_download', { path: harness.png, target_format: 'webp' });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toBe(
      'Refused before paying anything (budget): this conversion costs 0.002000 USDC (job fee) + 0.020000 USDC (result) = 0.022000 USDC, ' +
        'over the budget left: 0.021000 of 0.021000 USDC. Nothing was signed or paid.',
    );
    expect(poor.ledger.records()).toHaveLength(0);
    expect(await harness.payerBalance()).toBe(before);
  });

  it('shares one budget between two contexts (two servers) on one ledger file', async () => {
    const ledger = join(harness.dir, 'shared-ledger.jsonl');
    const [first, second] = [harness.context({ FILESHIFT_LEDGER: ledger, FILESHIFT_BUDGET_USDC: '0.003' }), harness.context({ FILESHIFT_LEDGER: ledger, FILESHIFT_BUDGET_USDC: '0.003' })];
    const clients = await Promise.all([harness.connect(first), harness.connect(second)]);
    const before = await harness.payerBalance();
    const results = await Promise.all(clients.map((client) => call(client, 'detect_file_type', { path: harness.png })));
    expect(results.map((result) => Boolean(result.isError)).sort()).toEqual([false, true]);
    expect(text(results.find((result) => result.isError)!)).toMatch(/^Payment refused \(budget\): 0\.002000 USDC is over the budget left: 0\.001000 of 0\.003000 USDC/);
    expect(await harness.payerBalance()).toBe(before - 2000n);
    expect(first.ledger.total()).toBe(2000n);
    expect(structured(await call(clients[1]!, 'wallet_status'))).toMatchObject({ spent_usdc: '0.002000' });
  });

  it('builds one wallet for concurrent first calls, and asks the service again after a failed first fetch', async () => {
    const shared = harness.context();
    const [a, b] = await Promise.all([shared.wallet(), shared.wallet()]);
    expect(a).toBe(b);

    const offline = harness.context({ FILESHIFT_URL: 'http://127.0.0.1:9' });
    const failed = await offline.wallet().catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(Error);
    const second = await offline.wallet().catch((error: unknown) => error);
    expect(second).toBeInstanceOf(Error);
    expect(second).not.toBe(failed);
  });

  it("takes the networks, assets and payTo addresses the service declares, unless FILESHIFT_ALLOWED_* say otherwise", async () => {
    const { devChain } = harness.service;
    const defaults = await harness.context().wallet();
    expect(defaults.spending().limits).toMatchObject({ allow: [{ network: devChain.network, asset: devChain.usdc }], allowPayTo: [devChain.payTo] });

    const otherNetwork = await harness.connect(harness.context({ FILESHIFT_ALLOWED_NETWORKS: BASE_NETWORK, FILESHIFT_ALLOWED_ASSETS: BASE_USDC }));
    expect(structured(await call(otherNetwork, 'wallet_status'))).toMatchObject({ balances: [{ network: BASE_NETWORK, asset: BASE_USDC, balance_usdc: null }] });
    const wrongNetwork = await call(otherNetwork, 'detect_file_type', { path: harness.png });
    expect(wrongNetwork.isError).toBe(true);
    expect(text(wrongNetwork)).toMatch(/^Payment refused \(network_or_asset\)/);

    const otherPayTo = await harness.connect(harness.context({ FILESHIFT_ALLOWED_PAY_TO: '0x000000000000000000000000000000000000dEaD' }));
    const wrongPayTo = await call(otherPayTo, 'detect_file_type', { path: harness.png });
    expect(text(wrongPayTo)).toMatch(/^Payment refused \(pay_to\)/);

    const sameAsDeclared = await harness.connect(harness.context({ FILESHIFT_ALLOWED_NETWORKS: devChain.network, FILESHIFT_ALLOWED_ASSETS: devChain.usdc, FILESHIFT_ALLOWED_PAY_TO: devChain.payTo }));
    expect((await call(sameAsDeclared, 'detect_file_type', { path: harness.png })).structuredContent).toMatchObject({ paid_usdc: '0.002000' });
  });

  it('asks the user through elicitation above the approval threshold: a yes pays, a no pays nothing', async () => {
    const asked: string[] = [];
    let answer = true;
    const client = await harness.connect(harness.context({ FILESHIFT_APPROVAL_THRESHOLD_USDC: '0.001' }), { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      return { action: 'accept', content: { approve: answer } };
    });
    const before = await harness.payerBalance();
    expect((await call(client, 'detect_file_type', { path: harness.png })).structuredContent).toMatchObject({ paid_usdc: '0.002000' });
    expect(await harness.payerBalance()).toBe(before - 2000n);

    answer = false;
    const declined = await call(client, 'detect_file_type', { path: harness.png });
    expect(declined.isError).toBe(true);
    expect(text(declined)).toMatch(/^Payment refused \(approval\): 0\.002000 USDC is above the approval threshold of 0\.001000 USDC and the user did not approve it/);
    expect(asked).toEqual([expect.stringMatching(/^Pay 0\.002000 USDC on local anvil dev chain \(eip155:31337\) to 0x/), expect.stringMatching(/^Pay 0\.002000 USDC/)]);
    expect(await harness.payerBalance()).toBe(before - 2000n);
  });

  it('refuses payments above the threshold when the client cannot ask its user (no elicitation), up front for a whole conversion', async () => {
    const context = harness.context({ FILESHIFT_APPROVAL_THRESHOLD_USDC: '0.001' });
    const client = await harness.connect(context);
    const before = await harness.payerBalance();
    const refused = await call(client, 'detect_file_type', { path: harness.png });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(/^Payment refused \(approval\): 0\.002000 USDC is above the approval threshold of 0\.001000 USDC and this MCP client cannot ask the user/);
    const conversion = await call(client, 'convert_and_download', { path: harness.png, target_format: 'webp' });
    expect(text(conversion)).toMatch(/^Refused before paying anything \(approval\)/);
    expect(await harness.payerBalance()).toBe(before);
    expect(context.ledger.records()).toHaveLength(0);
  });

  it('a declined approval of the whole conversion pays nothing, not even the job fee (issue #16)', async () => {
    const context = harness.context({ FILESHIFT_APPROVAL_THRESHOLD_USDC: '0.01' });
    const declining = await harness.connect(context, { capabilities: { elicitation: {} } });
    declining.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'decline' }));
    const before = await harness.payerBalance();
    const refused = await call(declining, 'convert_and_download', { path: harness.png, target_format: 'webp' });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(/^Payment refused \(approval\): Convert picture\.png .* = 0\.022 USDC at most was not approved\. Nothing was signed or paid\./);
    expect(context.ledger.total()).toBe(0n);
    expect(await harness.payerBalance()).toBe(before);
  });
});
