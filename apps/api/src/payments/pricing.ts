import type { PriceConfig } from '../config/app-config.js';
import { MAX_UPLOAD_BYTES } from '../config/upload-limit.js';

/** Pure pricing rules of the x402 API. No I/O: tested directly. */

export const USDC_DECIMALS = 6;
export const STANDARD_TIER_MAX_BYTES = 10_485_760;

export type PricingRule = 'file_size_lte_10mb' | 'file_size_gt_10mb_lte_40mb';
export type PricingTierName = 'standard' | 'large';

/** The spec's `Price` object. */
export interface Price {
  amount: string;
  currency: 'USDC';
  atomic_units: string;
  decimals: 6;
  network?: string;
}

export interface ResultPrice extends Price {
  pricing_rule: PricingRule;
}

export interface ResultTier {
  name: PricingTierName;
  rule: PricingRule;
  minSizeBytes: number;
  maxSizeBytes: number;
  atomic: number;
}

/** "0.002000" from 2000 atomic units: always six decimals, as the spec shows amounts. */
export function formatUsdc(atomic: number | bigint): string {
  const value = BigInt(atomic);
  if (value < 0n) throw new RangeError('negative amount');
  const scale = 10n ** BigInt(USDC_DECIMALS);
  return `${value / scale}.${(value % scale).toString().padStart(USDC_DECIMALS, '0')}`;
}

/** "0.02" from 20000 atomic units: the amount without trailing zeros, as prose writes it. */
export function formatUsdcShort(atomic: number | bigint): string {
  return formatUsdc(atomic).replace(/\.?0+$/, '');
}

export function price(atomic: number, network?: string): Price {
  return {
    amount: formatUsdc(atomic),
    currency: 'USDC',
    atomic_units: String(atomic),
    decimals: USDC_DECIMALS,
    ...(network ? { network } : {}),
  };
}

export function resultTiers(prices: PriceConfig): ResultTier[] {
  return [
    { name: 'standard', rule: 'file_size_lte_10mb', minSizeBytes: 1, maxSizeBytes: STANDARD_TIER_MAX_BYTES, atomic: prices.resultStandardAtomic },
    { name: 'large', rule: 'file_size_gt_10mb_lte_40mb', minSizeBytes: STANDARD_TIER_MAX_BYTES + 1, maxSizeBytes: MAX_UPLOAD_BYTES, atomic: prices.resultLargeAtomic },
  ];
}

/** The tier of an uploaded size; the result price depends on nothing else. */
export function resultTierFor(uploadedSizeBytes: number, prices: PriceConfig): ResultTier {
  if (!Number.isInteger(uploadedSizeBytes) || uploadedSizeBytes < 1 || uploadedSizeBytes > MAX_UPLOAD_BYTES) {
    throw new RangeError(`uploaded size ${uploadedSizeBytes} is outside 1..${MAX_UPLOAD_BYTES}`);
  }
  return resultTiers(prices).find((tier) => uploadedSizeBytes <= tier.maxSizeBytes)!;
}

export function resultPrice(uploadedSizeBytes: number, prices: PriceConfig, network?: string): ResultPrice {
  const tier = resultTierFor(uploadedSizeBytes, prices);
  return { ...price(tier.atomic, network), pricing_rule: tier.rule };
}

/** A charge of nothing, as a failed job reports it. */
export const ZERO_PRICE: Price = price(0);
