import { resultPriceFor, type ServicePrices } from './service-prices.js';
import type { SpendPlan } from './spend-plan.js';

/**
 * What a whole conversion may cost, from the service's declared prices: the job fee, then the result.
 * The service prices a result by the uploaded size alone, so its tier is known before the upload (the
 * highest tier when no tier holds the size). Known before the first payment, so a job fee is never
 * paid for a result the payer could not buy.
 */
export function conversionPlan(prices: ServicePrices, { filename, sizeBytes, targetFormat }: { filename: string; sizeBytes: number; targetFormat: string }): SpendPlan {
  const payments: Array<SpendPlan['payments'][number]> = [];
  if (prices.conversionJobFee !== null) payments.push({ label: 'job fee', maxAmount: prices.conversionJobFee });
  const result = resultPriceFor(prices, sizeBytes);
  if (result !== null) payments.push({ label: 'result', maxAmount: result });
  return { purpose: `Convert ${filename} (${sizeBytes} bytes) to ${targetFormat}`, payments };
}
