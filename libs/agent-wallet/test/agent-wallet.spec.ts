import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { SpendLimitError } from '@fileshift/sdk';
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AgentWallet, type AgentWalletOptions, type PayerHooks } from '../src/agent-wallet.js';
import { SpendLedger, type SpendRecord } from '../src/spend-ledger.js';
import { ASSET, challengingFetch, NETWORK, PAY_TO, URL_PAID } from './support/challenging-fetch.js';

const PAYING_PROCESS = fileURLToPath(new URL('./support/pay-until-refused.ts', import.meta.url));

describe('AgentWallet (the SDK payer with a ledger on disk and owner approval)', () => {
  let dir: string;
  let ledgerPath: string;
  let account: PrivateKeyAccount;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'agent-wallet-'));
    ledgerPath = join(dir, 'spend.jsonl');
    account = privateKeyToAccount(generatePrivateKey());
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const wallet = (overrides: Partial<AgentWalletOptions> = {}) =>
    new AgentWallet({
      account,
      ledger: new SpendLedger(ledgerPath, (overrides.account ?? account).address),
      limits: { allow: [{ network: NETWORK, asset: ASSET }], maxPerPayment: 30_000n, budget: 45_000n, allowPayTo: [PAY_TO] },
      ...overrides,
    });
  const pay = (owner: AgentWallet, amount: string, paid: string[] = [], hooks?: PayerHooks) => owner.payer(hooks).wrap(challengingFetch(amount, paid))(URL_PAID, { method: 'POST' });

  it('pays within the limits and records each payment on disk under the wallet address, telling the caller', async () => {
    const owner = wallet();
    const paid: string[] = [];
    const told: SpendRecord[] = [];
    expect((await pay(owner, '20000', paid, { onPayment: (payment) => told.push(payment) })).status).toBe(200);
    expect(paid).toHaveLength(1);
    expect(owner.spending()).toMatchObject({ spent: 20_000n, budgetLeft: 25_000n });
    const onDisk = new SpendLedger(ledgerPath, account.address).records();
    expect(onDisk).toEqual([expect.objectContaining({ amount: '20000', network: NETWORK, payTo: PAY_TO, resource: URL_PAID, wallet: account.address.toLowerCase() })]);
    expect(told).toEqual(onDisk);
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

  it('keeps the budget across restarts', async () => {
    await pay(wallet(), '30000');
    await expect(pay(wallet(), '20000')).rejects.toMatchObject({ limit: 'budget' });
  });

  it('shares one budget between two wallet instances on one ledger file, even paying at the same time', async () => {
    const [first, second] = [wallet(), wallet()];
    const paid: string[] = [];
    const results = await Promise.allSettled([pay(first, '20000', paid), pay(second, '20000', paid), pay(first, '20000', paid), pay(second, '20000', paid)]);
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(2);
    expect(results.filter((result) => result.status === 'rejected').map((result) => (result as PromiseRejectedResult).reason)).toEqual([
      expect.objectContaining({ limit: 'budget' }),
      expect.objectContaining({ limit: 'budget' }),
    ]);
    expect(paid).toHaveLength(2);
    expect(first.spending().spent).toBe(40_000n);
    expect(second.spending().spent).toBe(40_000n);
  });

  it('keeps separate budgets for different wallets sharing one ledger file', async () => {
    const other = privateKeyToAccount(generatePrivateKey());
    await pay(wallet(), '30000');
    await pay(wallet({ account: other }), '30000');
    expect(wallet().spending().spent).toBe(30_000n);
    expect(wallet({ account: other }).spending().spent).toBe(30_000n);
  });

  it('holds one budget across processes paying from one ledger file', async () => {
    const key = generatePrivateKey();
    const run = () => promisify(execFile)(process.execPath, ['--conditions=@fileshift/source', '--import', 'tsx', PAYING_PROCESS, ledgerPath, key, '1000', '9000']);
    const outputs = await Promise.all([run(), run(), run()]);
    const payments = outputs.map(({ stdout }) => Number(stdout.trim()));
    expect(payments.reduce((sum, count) => sum + count, 0)).toBe(9);
    expect(new SpendLedger(ledgerPath, privateKeyToAccount(key).address).total()).toBe(9000n);
  });

  it('refuses a ledger opened for another wallet', () => {
    expect(() => new AgentWallet({ account, ledger: new SpendLedger(ledgerPath, PAY_TO), limits: { allow: [], maxPerPayment: 1n } })).toThrow(/another wallet/);
  });

  it('asks the owner above the threshold, and declines when nobody can be asked', async () => {
    const owner = wallet({ approvalThreshold: 10_000n });
    const asked: bigint[] = [];
    const approve: PayerHooks['approve'] = async ({ amount }) => (asked.push(amount), amount < 21_000n);
    await pay(owner, '2000', [], { approve });
    await pay(owner, '20000', [], { approve });
    await expect(pay(owner, '23000', [], { approve })).rejects.toMatchObject({ limit: 'approval' });
    await expect(pay(owner, '15000')).rejects.toMatchObject({ limit: 'approval' });
    expect(asked).toEqual([20_000n, 23_000n]);
    expect(owner.spending().spent).toBe(22_000n);
  });
});
