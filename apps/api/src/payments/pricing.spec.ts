import { describe, expect, it } from 'vitest';
import type { PriceConfig } from '../config/app-config.js';
import { MAX_UPLOAD_BYTES } from '../config/upload-limit.js';
import { formatUsdc, price, resultPrice, resultTierFor, STANDARD_TIER_MAX_BYTES, ZERO_PRICE } from './pricing.js';

const prices: PriceConfig = { detectAtomic: 2000, jobAtomic: 2000, resultStandardAtomic: 20000, resultLargeAtomic: 40000 };

describe('pricing', () => {
  it('formats atomic units with exactly six decimals', () => {
    expect(formatUsdc(2000)).toBe('0.002000');
    expect(formatUsdc(0)).toBe('0.000000');
    expect(formatUsdc(1_234_567_890n)).toBe('1234.567890');
    expect(() => formatUsdc(-1)).toThrow(RangeError);
  });

  it('builds the spec Price object', () => {
    expect(price(2000, 'eip155:8453')).toEqual({
      amount: '0.002000', currency: 'USDC', atomic_units: '2000', decimals: 6, network: 'eip155:8453',
    });
    expect(ZERO_PRICE).toEqual({ amount: '0.000000', currency: 'USDC', atomic_units: '0', decimals: 6 });
  });

  it('puts the tier boundary at exactly 10485760 bytes', () => {
    expect(resultTierFor(1, prices).name).toBe('standard');
    expect(resultTierFor(STANDARD_TIER_MAX_BYTES, prices)).toMatchObject({ name: 'standard', rule: 'file_size_lte_10mb', atomic: 20000 });
    expect(resultTierFor(STANDARD_TIER_MAX_BYTES + 1, prices)).toMatchObject({ name: 'large', rule: 'file_size_gt_10mb_lte_40mb', atomic: 40000 });
    expect(resultTierFor(MAX_UPLOAD_BYTES, prices).name).toBe('large');
    expect(resultPrice(10_485_761, prices)).toEqual({
      amount: '0.040000', currency: 'USDC', atomic_units: '40000', decimals: 6, pricing_rule: 'file_size_gt_10mb_lte_40mb',
    });
  });

  it('refuses sizes outside 1..41943040', () => {
    for (const size of [0, -1, MAX_UPLOAD_BYTES + 1, 1.5]) expect(() => resultTierFor(size, prices)).toThrow(RangeError);
  });
});
