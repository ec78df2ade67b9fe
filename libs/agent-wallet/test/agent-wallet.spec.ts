import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SpendLimitError } from '@fileshift/sdk';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AgentWallet, type AgentWalletOptions, type ApprovePayment } from '../src/agent-wallet.js';
import { SpendLedger } from '../src/spend-ledger.js';

const NETWORK = 'eip155:31337';
const ASSET = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const PAY_TO = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
const URL_PAID = 'http://fileshift.test/api/x402/v1/detect-file-type';

/** A stand-in for the service's HTTP boundary: a 402 challenge for `amount` unless the request carries a payment. */
function challengingFetch(amount: string, paid: string[]): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const signature = request.headers.get('PAYMENT-SIGNATURE');
    if (signature) {
      paid.push(signature);
      return new Response('{}', { status: 200 });
    }
    const challenge = {
      x402Version: 2,
      resource: { url: URL_PAID, description: '', mimeType: 'application/json' },
      accepts: [{ scheme: 'exact', network: NETWORK, asset: ASSET, amount, payTo: PAY_TO, maxTimeoutSeconds: 300, extra: { name: 'USD Coin', version: '2' } }],
    };
    return new Response(JSON.stringify(challenge), { status: 402, headers: { 'content-type': 'application/json', 'PAYMENT-REQUIRED': btoa(JSON.stringify(challenge)) } });
  };
}

describe('AgentWallet (the SDK payer with a ledger on disk and owner approval)', () => {
  let dir: string;
  let ledgerPath: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'agent-wallet-'));
    ledgerPath = join(dir, 'spend.jsonl');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const wallet = (overrides: Partial<AgentWalletOptions> = {}) =>
    new AgentWallet({
      account: privateKeyToAccount(generatePrivateKey()),
      ledger: new SpendLedger(ledgerPath),
      limits: { allow: [{ network: NETWORK, asset: ASSET }], maxPerPayment: 30_000n, budget: 45_000n, allowPayTo: [PAY_TO] },
      ...overrides,
    });
  const pay = (owner: AgentWallet, amount: string, paid: string[] = [], approve?: ApprovePayment) => owner.payer(approve).wrap(challengingFetch(amount, paid))(URL_PAID, { method: 'POST' });

  it('pays within the limits and records each payment on disk', async () => {
    const owner = wallet();
    const paid: string[] = [];
    expect((await pay(owner, '20000', paid)).status).toBe(200);
    expect(paid).toHaveLength(1);
    expect(owner.spending()).toMatchObject({ spent: 20_000n, budgetLeft: 25_000n });
    expect(new SpendLedger(ledgerPath).records()).toEqual([expect.objectContaining({ amount: '20000', network: NETWORK, payTo: PAY_TO, resource: URL_PAID })]);
  });

  it('refuses with a SpendLimitError naming the limit, sending nothing', async () => {
    const owner = wallet();
    const paid: string[] = [];
    await expect(pay(owner, '40000', paid)).rejects.toMatchObject({ name: 'SpendLimitError', limit: 'per_payment_cap' });
    await pay(owner, '30000', paid);
    const error = await pay(owner, '20000', paid).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SpendLimitError);
    expect((error as Error).message).toBe('Payment refused (budget): 0.02 USDC is over the budget left: 0.015 of 0.045 USDC.');
    expect(paid).toHaveLength(1);
  });

  it('does not let concurrent payments from two callers overrun the budget together', async () => {
    const owner = wallet();
    const results = await Promise.allSettled([pay(owner, '25000'), pay(owner, '25000')]);
    expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(owner.spending().spent).toBe(25_000n);
  });

  it('keeps the budget across restarts and between payers of one wallet', async () => {
    await pay(wallet(), '30000');
    await expect(pay(wallet(), '20000')).rejects.toMatchObject({ limit: 'budget' });
  });

  it('asks the owner above the threshold, and declines when nobody can be asked', async () => {
    const owner = wallet({ approvalThreshold: 10_000n });
    const asked: bigint[] = [];
    const approve: ApprovePayment = async ({ amount }) => (asked.push(amount), amount < 21_000n);
    await pay(owner, '2000', [], approve);
    await pay(owner, '20000', [], approve);
    await expect(pay(owner, '23000', [], approve)).rejects.toMatchObject({ limit: 'approval' });
    await expect(pay(owner, '15000')).rejects.toMatchObject({ limit: 'approval' });
    expect(asked).toEqual([20_000n, 23_000n]);
    expect(owner.spending().spent).toBe(22_000n);
  });
});
