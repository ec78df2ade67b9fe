import { parseUsdc } from './spend-policy.js';

/** The prices the service declares in /.well-known/x402.json, in atomic USDC units (null: not declared). */
export interface ServicePrices {
  detection: bigint | null;
  conversionJobFee: bigint | null;
  /** The result's price by uploaded size, smallest tier first. */
  resultTiers: Array<{ maxSizeBytes: number; price: bigint }>;
}

/** The part of /.well-known/x402.json that carries prices. */
export interface PriceDiscovery {
  resources: Array<{ operationId: string; price: { amount?: string; tiers?: Array<{ max_size_bytes: number; amount: string }> } }>;
}

export function pricesOf(discovery: PriceDiscovery): ServicePrices {
  const fixed = (operationId: string) => {
    const amount = discovery.resources.find((resource) => resource.operationId === operationId)?.price.amount;
    return amount === undefined ? null : parseUsdc(amount);
  };
  const tiers = discovery.resources.find((resource) => resource.operationId === 'purchaseConversionResult')?.price.tiers ?? [];
  return {
    detection: fixed('detectFileType'),
    conversionJobFee: fixed('createConversionJob'),
    resultTiers: tiers.map((tier) => ({ maxSizeBytes: tier.max_size_bytes, price: parseUsdc(tier.amount) })).sort((a, b) => a.maxSizeBytes - b.maxSizeBytes),
  };
}

/**
 * The most the result of an upload of `sizeBytes` can cost: its tier's price (the service prices a
 * result by the uploaded size only), or the highest tier's when no tier holds that size. Null when
 * no tiers are declared.
 */
export function resultPriceFor(prices: ServicePrices, sizeBytes: number): bigint | null {
  const tier = prices.resultTiers.find((candidate) => sizeBytes <= candidate.maxSizeBytes) ?? prices.resultTiers.at(-1);
  return tier?.price ?? null;
}
