import { resultPriceFor, type ServicePrices } from './service-prices.js';
import type { SpendPlan } from './spend-plan.js';

/**
 * What a whole conversion may cost, from the service's declared prices: the job fee, then the result.
 * The service prices a result by the uploaded size alone, so its tier is known before the upload (the
 * highest tier when no tier holds the size, or for a URL, whose size is not known yet). Known before the first payment, so a job fee is never
 * paid for a result the payer could not buy. A join of `fileCount` files is one job: `sizeBytes` is their total.
 */
export function conversionPlan(
  prices: ServicePrices,
  { filename, sizeBytes, targetFormat, fileCount = 1 }: { filename: string; sizeBytes?: number; targetFormat: string; fileCount?: number },
): SpendPlan {
  const payments: Array<SpendPlan['payments'][number]> = [];
  if (prices.conversionJobFee !== null) payments.push({ label: 'job fee', maxAmount: prices.conversionJobFee });
  // A file the service fetches from a URL has no size until it is fetched: the plan counts the highest result price.
  const result = resultPriceFor(prices, sizeBytes ?? Number.POSITIVE_INFINITY);
  if (result !== null) payments.push({ label: 'result', maxAmount: result });
  const size = sizeBytes === undefined ? 'size known once fetched' : `${sizeBytes} bytes`;
  // Several files are one job, its result priced by their total size.
  if (fileCount > 1) return { purpose: `Join ${fileCount} files (${size} together) into ${targetFormat}, named ${filename}`, payments };
  return { purpose: `Convert ${filename} (${size}) to ${targetFormat}`, payments };
}
