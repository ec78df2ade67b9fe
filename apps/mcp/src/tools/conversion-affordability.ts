import { resultPriceFor, type ServicePrices } from '@fileshift/sdk';
import type { LocalSpending } from '../fileshift-context.js';
import { formatAmount } from '../usdc-amount.js';

export interface ApprovalRule {
  threshold: bigint | null;
  canAskUser: boolean;
}

/**
 * Why a whole conversion (job fee, then the result) cannot be paid within the wallet's limits, or
 * null. Checked before the job fee is paid, so a conversion is not started whose result cannot be bought.
 * Without a size (a file the service fetches from a URL) the result counts at the highest price.
 */
export function unaffordableConversion(spending: LocalSpending, prices: ServicePrices, sizeBytes: number | undefined, approval: ApprovalRule): string | null {
  const fee = prices.conversionJobFee ?? 0n;
  const result = resultPriceFor(prices, sizeBytes ?? Number.POSITIVE_INFINITY) ?? 0n;
  const refuse = (limit: string, why: string) => `Refused before paying anything (${limit}): ${why}. Nothing was signed or paid.`;
  const largest = fee > result ? fee : result;
  if (largest > spending.maxPerPayment) {
    return refuse('per_payment_cap', `a payment of ${formatAmount(largest)} USDC is needed, over the per-payment cap of ${formatAmount(spending.maxPerPayment)} USDC`);
  }
  if (fee + result > spending.budgetLeft) {
    return refuse(
      'budget',
      `this conversion costs ${formatAmount(fee)} USDC (job fee) + ${formatAmount(result)} USDC (result) = ${formatAmount(fee + result)} USDC, ` +
        `over the budget left: ${formatAmount(spending.budgetLeft)} of ${formatAmount(spending.budget)} USDC`,
    );
  }
  if (approval.threshold !== null && largest > approval.threshold && !approval.canAskUser) {
    return refuse(
      'approval',
      `a payment of ${formatAmount(largest)} USDC is above the approval threshold of ${formatAmount(approval.threshold)} USDC and this MCP client cannot ask the user (no elicitation support)`,
    );
  }
  return null;
}
