import { describe, expect, it } from 'vitest';
import { repairUnsettled } from './settlement-repair.js';

describe('repairUnsettled', () => {
  it('completes what the ledger shows settled; undoes only what cannot be settling any more; reports the unknown', () => {
    expect(repairUnsettled('settled', 5, 900)).toBe('complete');
    expect(repairUnsettled('none', 5, 900)).toBe('leave');
    expect(repairUnsettled('failed', 5, 900)).toBe('leave');
    expect(repairUnsettled('none', 901, 900)).toBe('undo');
    expect(repairUnsettled('failed', 901, 900)).toBe('undo');
    expect(repairUnsettled('verified', 901, 900)).toBe('report');
  });
});
