import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { x402Client } from '@x402/core/client';
import type { PaymentRequired } from '@x402/core/types';
import { toClientEvmSigner } from '@x402/evm';
import { registerExactEvmScheme } from '@x402/evm/exact/client';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AgentWallet, type AgentWalletOptions, type ApprovePayment } from '../src/agent-wallet.js';
import { SpendLedger } from '../src/spend-ledger.js';

const NETWORK = 'eip155:31337';
const ASSET = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const PAY_TO = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';

const challenge = (amount: string, payTo = PAY_TO): PaymentRequired => ({
  x402Version: 2,
  resource: { url: 'http://127.0.0.1:3000/api/x402/v1/detect-file-type', description: '', mimeType: 'application/json' },
  accepts: [{ scheme: 'exact', network: NETWORK, asset: ASSET, amount, payTo, maxTimeoutSeconds: 300, extra: { name: 'USD Coin', version: '2' } }],
});

describe('AgentWallet guarding the official x402 client', () => {
  let dir: string;
  let ledgerPath: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'agent-wallet-'));
    ledgerPath = join(dir, 'spend.jsonl');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  function walletClient(overrides: Partial<AgentWalletOptions> = {}, approve?: ApprovePayment) {
    const account = privateKeyToAccount(generatePrivateKey());
    const wallet = new AgentWallet({
      account,
      ledger: new SpendLedger(ledgerPath),
      limits: { maxPerPayment: 30_000n, totalBudget: 45_000n, allowedNetworks: [NETWORK], allowedAssets: [ASSET], allowedPayTo: [PAY_TO] },
      ...overrides,
    });
    const client = wallet.guard(registerExactEvmScheme(new x402Client(), { signer: toClientEvmSigner(account) }), approve);
    return { wallet, client };
  }

  it('signs within the limits and records each payment on disk', async () => {
    const { wallet, client } = walletClient();
    const payload = await client.createPaymentPayload(challenge('20000'));
    expect(payload.accepted.amount).toBe('20000');
    expect(wallet.spending()).toMatchObject({ spent: 20_000n, budgetLeft: 25_000n });
    expect(new SpendLedger(ledgerPath).records()).toEqual([expect.objectContaining({ amount: '20000', network: NETWORK, payTo: PAY_TO, resource: expect.stringContaining('detect-file-type') })]);
  });

  it('refuses, unsigned and unrecorded, a payment over the cap, over the budget or to another payTo', async () => {
    const { wallet, client } = walletClient();
    await expect(client.createPaymentPayload(challenge('40000'))).rejects.toThrow(/per_payment_cap: 0.04 USDC is over the per-payment cap of 0.03 USDC/);
    await expect(client.createPaymentPayload(challenge('2000', '0x0000000000000000000000000000000000000001'))).rejects.toThrow(/pay_to/);
    await client.createPaymentPayload(challenge('30000'));
    await expect(client.createPaymentPayload(challenge('20000'))).rejects.toThrow(/budget: 0.02 USDC is over the budget left: 0.015 of 0.045 USDC/);
    expect(wallet.spending().spent).toBe(30_000n);
  });

  it('does not let concurrent payments overrun the budget together', async () => {
    const { wallet, client } = walletClient();
    const results = await Promise.allSettled([client.createPaymentPayload(challenge('25000')), client.createPaymentPayload(challenge('25000'))]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(wallet.spending().spent).toBe(25_000n);
  });

  it('asks the owner above the threshold and respects a refusal', async () => {
    const asked: bigint[] = [];
    const { wallet, client } = walletClient({ approvalThreshold: 10_000n }, async ({ amount }) => (asked.push(amount), amount < 21_000n));
    await client.createPaymentPayload(challenge('2000'));
    await client.createPaymentPayload(challenge('20000'));
    await expect(client.createPaymentPayload(challenge('23000'))).rejects.toThrow(/approval: the owner declined paying 0.023 USDC/);
    expect(asked).toEqual([20_000n, 23_000n]);
    expect(wallet.spending().spent).toBe(22_000n);
    const unasked = walletClient({ approvalThreshold: 10_000n }).client;
    await expect(unasked.createPaymentPayload(challenge('20000'))).rejects.toThrow(/approval: the owner declined/);
  });

  it('keeps the budget across restarts', async () => {
    await walletClient().client.createPaymentPayload(challenge('30000'));
    const { client } = walletClient();
    await expect(client.createPaymentPayload(challenge('20000'))).rejects.toThrow(/budget left: 0.015/);
  });
});
