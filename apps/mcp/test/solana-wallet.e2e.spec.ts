import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { call, McpHarness, structured, text } from './support/mcp-harness.js';

const SOLANA_SIGNATURE = /^[1-9A-HJ-NP-Za-km-z]{64,88}$/;

interface PaidOn {
  network: string;
  network_name: string;
  transaction: string | null;
}

describe('the agent wallet paying on Solana, against the live service and its local Solana dev chain (real settlement)', () => {
  let harness: McpHarness;
  beforeAll(async () => void (harness = await McpHarness.start()));
  afterAll(async () => harness?.stop());

  const solana = () => harness.service.solanaDevChain;
  const onSolana = () => ({ network: solana().network, network_name: 'local Solana dev chain', transaction: expect.stringMatching(SOLANA_SIGNATURE) });

  /** Starts a conversion and waits for its end in one get_conversion_status call. */
  async function convertAndWait(client: Client): Promise<{ jobId: string; feePaidOn: PaidOn }> {
    const started = await call(client, 'convert_file', { path: harness.png, target_format: 'gif' });
    expect(started.isError, text(started)).toBeFalsy();
    const { job_id: jobId, paid_on: feePaidOn } = structured<{ job_id: string; paid_on: PaidOn }>(started);
    const status = await call(client, 'get_conversion_status', { job_id: jobId, wait_seconds: 60 });
    expect(structured(status)).toMatchObject({ job_id: jobId, status: 'done', progress_percent: 100, failure_type: null, retry_after_seconds: null });
    expect(text(status)).toMatch(/is done; buy the result with purchase_result/);
    return { jobId, feePaidOn };
  }

  it('a Solana-only wallet pays a detection on the local Solana: the result names the network and the transaction; the ledger and wallet_status agree', async () => {
    const context = harness.solanaContext();
    const client = await harness.connect(context);
    const [evmBefore, before] = [await harness.payerBalance(), await harness.solanaPayerBalance()];

    const detected = await call(client, 'detect_file_type', { path: harness.png });
    expect(detected.isError, text(detected)).toBeFalsy();
    const result = structured<{ paid_usdc: string; transaction: string; paid_on: PaidOn }>(detected);
    expect(result).toMatchObject({ format: 'png', paid_usdc: '0.002000', paid_on: onSolana() });
    expect(result.transaction).toBe(result.paid_on.transaction);
    expect(text(detected)).toContain(`Paid 0.002000 USDC on local Solana dev chain (${solana().network}), tx ${result.transaction}.`);

    expect(await harness.solanaPayerBalance()).toBe(before - 2000n);
    expect(await harness.payerBalance()).toBe(evmBefore);
    expect(context.ledger.records()).toMatchObject([{ network: solana().network, asset: solana().usdc, payTo: solana().payTo, amount: '2000', wallet: solana().payerAddress.toLowerCase() }]);
    const status = await call(client, 'wallet_status');
    expect(structured(status)).toMatchObject({
      address: solana().payerAddress,
      evm_address: null,
      solana_address: solana().payerAddress,
      spent_usdc: '0.002000',
      balances: [{ network: solana().network, network_name: 'local Solana dev chain', asset: solana().usdc, balance_usdc: expect.stringMatching(/^\d+\.\d{6}$/) }],
    });
    expect(text(status)).not.toContain(JSON.stringify(solana().payerSecretKey).slice(1, 40));
  });

  it('pays a whole conversion on Solana: the job fee, a status call that waits for the end, the result; each says where it was paid', async () => {
    const client = await harness.connect(harness.solanaContext());
    const before = await harness.solanaPayerBalance();
    const { jobId, feePaidOn } = await convertAndWait(client);
    expect(feePaidOn).toMatchObject(onSolana());

    const bought = await call(client, 'purchase_result', { job_id: jobId });
    expect(bought.isError, text(bought)).toBeFalsy();
    const result = structured<{ paid_on: PaidOn; receipt: { network: string; transaction: string } }>(bought);
    expect(result).toMatchObject({ price_paid_usdc: '0.020000', paid_on: onSolana(), receipt: { network: solana().network, payer: solana().payerAddress } });
    expect(result.receipt.transaction).toBe(result.paid_on.transaction);
    expect(text(bought)).toContain(`Paid 0.020000 USDC on local Solana dev chain (${solana().network}), tx ${result.paid_on.transaction}.`);
    expect(await harness.solanaPayerBalance()).toBe(before - 22_000n);
  });

  it('the budget refuses a Solana payment over it: isError naming the limit; nothing signed, moved or recorded', async () => {
    const { jobId } = await convertAndWait(await harness.connect(harness.solanaContext()));
    const poor = harness.solanaContext({ FILESHIFT_BUDGET_USDC: '0.021' });
    const client = await harness.connect(poor);
    expect(structured(await call(client, 'detect_file_type', { path: harness.png }))).toMatchObject({ paid_on: onSolana() });
    const [before, records] = [await harness.solanaPayerBalance(), poor.ledger.records().length];

    const refused = await call(client, 'purchase_result', { job_id: jobId });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toBe('Payment refused (budget): 0.020000 USDC is over the budget left: 0.019000 of 0.021000 USDC. Nothing was signed or paid.');
    expect(await harness.solanaPayerBalance()).toBe(before);
    expect(poor.ledger.records()).toHaveLength(records);
  });

  it("holding both keys, pays on the service's first network (its EVM dev chain), or on Solana when FILESHIFT_ALLOWED_NETWORKS names it", async () => {
    const { devChain } = harness.service;
    const both = await harness.connect(harness.solanaContext({ FILESHIFT_WALLET_PRIVATE_KEY: devChain.payerPrivateKey }));
    expect(structured(await call(both, 'detect_file_type', { path: harness.png }))).toMatchObject({
      paid_on: { network: devChain.network, network_name: 'local anvil dev chain', transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/) },
    });
    expect(structured(await call(both, 'wallet_status'))).toMatchObject({
      address: devChain.payerAddress,
      evm_address: devChain.payerAddress,
      solana_address: solana().payerAddress,
      balances: [{ network: devChain.network }, { network: solana().network }],
    });

    const solanaPreferred = await harness.connect(harness.solanaContext({ FILESHIFT_WALLET_PRIVATE_KEY: devChain.payerPrivateKey, FILESHIFT_ALLOWED_NETWORKS: solana().network }));
    const before = await harness.solanaPayerBalance();
    expect(structured(await call(solanaPreferred, 'detect_file_type', { path: harness.png }))).toMatchObject({ paid_on: onSolana() });
    expect(await harness.solanaPayerBalance()).toBe(before - 2000n);
  });
});
