import { describe, expect, it } from 'vitest';
import { conversionPlan } from '../src/conversion-plan.js';
import { resultPriceFor, type ServicePrices } from '../src/service-prices.js';
import { checkPlan, describePlan } from '../src/spend-plan.js';

const prices: ServicePrices = {
  detection: 2000n,
  conversionJobFee: 2000n,
  resultTiers: [
    { maxSizeBytes: 10 * 1024 * 1024, price: 20_000n },
    { maxSizeBytes: 40 * 1024 * 1024, price: 40_000n },
  ],
};

describe('a conversion as one plan of payments, checked before the first', () => {
  it('prices the result by the tier of the upload size (what the service charges), the largest tier past them all', () => {
    expect(resultPriceFor(prices, 1)).toBe(20_000n);
    expect(resultPriceFor(prices, 10 * 1024 * 1024 + 1)).toBe(40_000n);
    expect(resultPriceFor(prices, 100 * 1024 * 1024)).toBe(40_000n);
  });

  it('describes the plan in words: what, each payment and the total in USDC, no address or URL', () => {
    const text = describePlan(conversionPlan(prices, { filename: 'picture.png', sizeBytes: 1234, targetFormat: 'webp' }));
    expect(text).toBe('Convert picture.png (1234 bytes) to webp: job fee 0.002 + result 0.02 = 0.022 USDC at most');
    expect(text).not.toMatch(/0x[0-9a-f]{8}|https?:/i);
  });

  it('counts the highest result price for a file the service fetches from a URL (its size is not known before)', () => {
    const text = describePlan(conversionPlan(prices, { filename: 'picture.png', targetFormat: 'webp' }));
    expect(text).toBe('Convert picture.png (size known once fetched) to webp: job fee 0.002 + result 0.04 = 0.042 USDC at most');
  });

  it('refuses a plan whose total is over the budget left, before anything is paid (the 0.01 budget of the issue)', () => {
    const plan = conversionPlan(prices, { filename: 'a.png', sizeBytes: 10, targetFormat: 'jpg' });
    expect(checkPlan(plan, { maxPerPayment: 100_000n, budget: 10_000n }, 0n)).toMatchObject({ allowed: false, limit: 'budget' });
    expect(checkPlan(plan, { maxPerPayment: 100_000n, budget: 30_000n }, 9_000n)).toMatchObject({ allowed: false, limit: 'budget' });
    expect(checkPlan(plan, { maxPerPayment: 100_000n, budget: 30_000n }, 8_000n)).toMatchObject({ allowed: true });
  });

  it('refuses a plan with one payment over the per-payment cap', () => {
    const plan = conversionPlan(prices, { filename: 'big.mov', sizeBytes: 20 * 1024 * 1024, targetFormat: 'mp4' });
    expect(checkPlan(plan, { maxPerPayment: 20_000n, budget: undefined }, 0n)).toMatchObject({ allowed: false, limit: 'per_payment_cap' });
  });
});
