import { appendFileSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SpendLedger } from '../src/spend-ledger.js';

const payment = (amount: string) => ({ at: '2026-11-22T10:00:00.000Z', network: 'eip155:31337', asset: '0xabc', payTo: '0xdef', amount });

describe('SpendLedger', () => {
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('starts empty, adds up what was spent and survives a restart', () => {
    dir = mkdtempSync(join(tmpdir(), 'ledger-'));
    const path = join(dir, 'nested', 'spend.jsonl');
    const ledger = new SpendLedger(path);
    expect(ledger.total()).toBe(0n);
    ledger.record(payment('2000'));
    ledger.record(payment('20000'));
    expect(ledger.total()).toBe(22000n);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const reopened = new SpendLedger(path);
    expect(reopened.total()).toBe(22000n);
    expect(reopened.records()).toHaveLength(2);
  });

  it('ignores a torn last line left by a crash', () => {
    dir = mkdtempSync(join(tmpdir(), 'ledger-'));
    const path = join(dir, 'spend.jsonl');
    new SpendLedger(path).record(payment('2000'));
    appendFileSync(path, '{"at":"2026-11-22T10:00:01.000Z","network":"eip');
    const reopened = new SpendLedger(path);
    expect(reopened.total()).toBe(2000n);
    reopened.record(payment('500'));
    expect(new SpendLedger(path).total()).toBe(2500n);
  });
});
