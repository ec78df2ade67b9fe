import { appendFileSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SpendLedger } from '../src/spend-ledger.js';

const WALLET = '0x90F79bf6EB2c4f870365E785982E1f101E93b906';
const OTHER_WALLET = '0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65';
const payment = (amount: string) => ({ at: '2026-11-22T10:00:00.000Z', network: 'eip155:31337', asset: '0xabc', payTo: '0xdef', amount });
const withinBudget = (budget: bigint, amount: bigint) => (spent: bigint) =>
  spent + amount <= budget ? ({ allowed: true } as const) : ({ allowed: false, limit: 'budget', message: `${spent} spent` } as const);

describe('SpendLedger', () => {
  let dir: string;
  let path: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'ledger-'));
    path = join(dir, 'nested', 'spend.jsonl');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('starts empty, adds up what was spent and survives a restart', () => {
    const ledger = new SpendLedger(path, WALLET);
    expect(ledger.total()).toBe(0n);
    ledger.record(payment('2000'));
    ledger.record(payment('20000'));
    expect(ledger.total()).toBe(22000n);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const reopened = new SpendLedger(path, WALLET);
    expect(reopened.total()).toBe(22000n);
    expect(reopened.records()).toHaveLength(2);
  });

  it('ignores a torn last line left by a crash', () => {
    new SpendLedger(path, WALLET).record(payment('2000'));
    appendFileSync(path, '{"at":"2026-11-22T10:00:01.000Z","network":"eip');
    const reopened = new SpendLedger(path, WALLET);
    expect(reopened.total()).toBe(2000n);
    reopened.record(payment('500'));
    expect(new SpendLedger(path, WALLET).total()).toBe(2500n);
  });

  it('sees what another instance on the same file appended since it was opened', () => {
    const first = new SpendLedger(path, WALLET);
    const second = new SpendLedger(path, WALLET);
    first.record(payment('2000'));
    expect(second.total()).toBe(2000n);
  });

  it("counts only its own wallet's lines, and lines that name no wallet (written before ledgers named one) for every wallet", () => {
    new SpendLedger(path, WALLET).record(payment('2000'));
    new SpendLedger(path, OTHER_WALLET).record(payment('7000'));
    appendFileSync(path, `${JSON.stringify(payment('100'))}\n`);
    expect(new SpendLedger(path, WALLET.toLowerCase()).total()).toBe(2100n);
    expect(new SpendLedger(path, OTHER_WALLET).total()).toBe(7100n);
  });

  it('reserves only what fits, against what every instance on the file recorded', async () => {
    const first = new SpendLedger(path, WALLET);
    const second = new SpendLedger(path, WALLET);
    const outcomes = await Promise.all([1, 2, 3].flatMap(() => [first, second].map((ledger) => ledger.reserve(payment('1000'), withinBudget(4000n, 1000n)))));
    expect(outcomes.filter((outcome) => outcome.decision.allowed)).toHaveLength(4);
    expect(outcomes.filter((outcome) => !outcome.decision.allowed)).toHaveLength(2);
    expect(new SpendLedger(path, WALLET).total()).toBe(4000n);
  });
});
