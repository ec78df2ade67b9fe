import { describe, expect, it } from 'vitest';
import { checkSpend, formatUsdc, parseUsdc, type SpendLimits } from '../src/spend-policy.js';

const limits: SpendLimits = {
  allow: [{ network: 'eip155:31337', asset: '0xAbC' }],
  maxPerPayment: 30_000n,
  budget: 50_000n,
  allowPayTo: ['0xDeF'],
};
const request = { network: 'eip155:31337', asset: '0xabc', payTo: '0xdef', amount: 20_000n };

describe('checkSpend', () => {
  it('allows a payment inside every limit (addresses compared case-insensitively)', () => {
    expect(checkSpend(request, limits, 0n)).toEqual({ allowed: true });
    expect(checkSpend(request, limits, 30_000n)).toEqual({ allowed: true });
    expect(checkSpend({ ...request, payTo: '0x999' }, { ...limits, allowPayTo: undefined, budget: undefined }, 10n ** 12n)).toEqual({ allowed: true });
  });

  it('names the limit a payment would break and how much is left', () => {
    expect(checkSpend({ ...request, network: 'eip155:8453' }, limits, 0n)).toMatchObject({ allowed: false, limit: 'network_or_asset' });
    expect(checkSpend({ ...request, asset: '0x123' }, limits, 0n)).toEqual({
      allowed: false,
      limit: 'network_or_asset',
      message: 'asset 0x123 on eip155:31337 is not allowed (allowed: 0xAbC on eip155:31337)',
    });
    expect(checkSpend({ ...request, payTo: '0x999' }, limits, 0n)).toMatchObject({ allowed: false, limit: 'pay_to' });
    expect(checkSpend({ ...request, amount: 40_000n }, limits, 0n)).toEqual({
      allowed: false,
      limit: 'per_payment_cap',
      message: '0.04 USDC is over the per-payment cap of 0.03 USDC',
    });
    expect(checkSpend(request, limits, 40_000n)).toEqual({
      allowed: false,
      limit: 'budget',
      message: '0.02 USDC is over the budget left: 0.01 of 0.05 USDC',
    });
    expect(checkSpend(request, limits, 90_000n)).toMatchObject({ limit: 'budget', message: expect.stringContaining('left: 0 of 0.05') });
  });
});

describe('USDC amounts', () => {
  it('format and parse six decimals', () => {
    expect(formatUsdc(20_000n)).toBe('0.02');
    expect(formatUsdc(1_000_000n)).toBe('1');
    expect(formatUsdc(2_000n)).toBe('0.002');
    expect(parseUsdc('0.05')).toBe(50_000n);
    expect(parseUsdc('1')).toBe(1_000_000n);
    expect(parseUsdc('0.000001')).toBe(1n);
    expect(() => parseUsdc('0.0000001')).toThrow(/not a USDC amount/);
    expect(() => parseUsdc('-1')).toThrow();
  });
});
