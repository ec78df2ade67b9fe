import type { PriceConfig } from '../config/app-config.js';
import { formatUsdc, resultTiers } from '../payments/pricing.js';

export type PaidPrice =
  | { mode: 'fixed'; currency: 'USDC'; amount: string; atomic_units: string }
  | { mode: 'dynamic'; currency: 'USDC'; min: string; max: string; rule: string; tiers: PriceTier[] };

/** A dynamic price's tiers, machine-readable: the price of uploads from min_size_bytes to max_size_bytes. */
export interface PriceTier {
  name: string;
  pricing_rule: string;
  min_size_bytes: number;
  max_size_bytes: number;
  amount: string;
  atomic_units: string;
}

export interface PaidResource {
  method: 'GET' | 'POST';
  path: string;
  operationId: string;
  description: string;
  price: PaidPrice;
}

export const X402_PREFIX = '/api/x402/v1';

const fixed = (atomic: number): PaidPrice => ({
  mode: 'fixed',
  currency: 'USDC',
  amount: formatUsdc(atomic),
  atomic_units: String(atomic),
});

/** The paid operations and their prices: the one list the landing page, llms.txt, x402.json and OpenAPI read. */
export function paidResources(prices: PriceConfig): PaidResource[] {
  const tiers = resultTiers(prices);
  return [
    {
      method: 'POST',
      path: `${X402_PREFIX}/detect-file-type`,
      operationId: 'detectFileType',
      description: 'Detect the real format of a file from its name, size and first 200 bytes.',
      price: fixed(prices.detectAtomic),
    },
    {
      method: 'POST',
      path: `${X402_PREFIX}/convert-file`,
      operationId: 'createConversionJob',
      description: 'Upload a file and start an asynchronous conversion job (non-refundable job creation fee).',
      price: fixed(prices.jobAtomic),
    },
    {
      method: 'GET',
      path: `${X402_PREFIX}/convert-file/{job_id}/result`,
      operationId: 'purchaseConversionResult',
      description: 'Buy the result of a finished conversion; returns a download URL valid for one hour.',
      price: {
        mode: 'dynamic',
        currency: 'USDC',
        min: formatUsdc(Math.min(prices.resultStandardAtomic, prices.resultLargeAtomic)),
        max: formatUsdc(Math.max(prices.resultStandardAtomic, prices.resultLargeAtomic)),
        rule: tiers.map((tier, index) => `${formatUsdc(tier.atomic)} ${index === 0 ? 'for uploads ' : ''}up to ${tier.maxSizeBytes} bytes`).join(', '),
        tiers: tiers.map((tier) => ({
          name: tier.name,
          pricing_rule: tier.rule,
          min_size_bytes: tier.minSizeBytes,
          max_size_bytes: tier.maxSizeBytes,
          amount: formatUsdc(tier.atomic),
          atomic_units: String(tier.atomic),
        })),
      },
    },
  ];
}

export function describePrice(price: PaidPrice): string {
  return price.mode === 'fixed' ? `${price.amount} USDC` : `${price.min}–${price.max} USDC (${price.rule})`;
}
