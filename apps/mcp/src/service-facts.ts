import { parseUsdc } from '@fileshift/sdk';

/** What the service declares in /.well-known/x402.json that the MCP server uses. */
export interface ServiceFacts {
  accepts: Array<{ network: string; asset: string; payTo: string }>;
  resources: Array<{ operationId: string; price: { mode: string; amount?: string; tiers?: Array<{ max_size_bytes: number; amount: string }> } }>;
  devChain?: { rpcUrl: string };
}

/** The service answered its discovery document with an error status. */
export class ServiceFactsError extends Error {}

/** The service's declared prices, in atomic USDC units (null: not declared). */
export interface DeclaredPrices {
  detectFileType: bigint | null;
  conversionJobFee: bigint | null;
  /** The result's price by upload size, smallest tier first. */
  resultTiers: Array<{ maxSizeBytes: number; price: bigint }>;
}

export function declaredPrices(facts: ServiceFacts): DeclaredPrices {
  const fixed = (operationId: string) => {
    const amount = facts.resources.find((resource) => resource.operationId === operationId)?.price.amount;
    return amount === undefined ? null : parseUsdc(amount);
  };
  const tiers = facts.resources.find((resource) => resource.operationId === 'purchaseConversionResult')?.price.tiers ?? [];
  return {
    detectFileType: fixed('detectFileType'),
    conversionJobFee: fixed('createConversionJob'),
    resultTiers: tiers.map((tier) => ({ maxSizeBytes: tier.max_size_bytes, price: parseUsdc(tier.amount) })).sort((a, b) => a.maxSizeBytes - b.maxSizeBytes),
  };
}

/** The declared price of the result of an upload of `sizeBytes`. */
export function resultPriceFor(prices: DeclaredPrices, sizeBytes: number): bigint | null {
  return prices.resultTiers.find((tier) => sizeBytes <= tier.maxSizeBytes)?.price ?? null;
}
