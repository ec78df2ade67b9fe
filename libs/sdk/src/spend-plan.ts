import { formatUsdc, type PaymentRequest, type SpendDecision, type SpendLimits } from './spend-policy.js';

/** Payments that belong together (e.g. a conversion's job fee and its result), checked and approved as one. */
export interface SpendPlan {
  /** What the payments buy, in words, for an approval prompt: e.g. "convert photo.png to webp". */
  purpose: string;
  /** Each payment the plan may make, in order, with the most it may cost (atomic units). */
  payments: ReadonlyArray<{ label: string; maxAmount: bigint }>;
}

export function planTotal(plan: SpendPlan): bigint {
  return plan.payments.reduce((sum, payment) => sum + payment.maxAmount, 0n);
}

/** The plan in words: "convert a.png to webp: job fee 0.002 + result 0.02 = 0.022 USDC at most". */
export function describePlan(plan: SpendPlan): string {
  const parts = plan.payments.map((payment) => `${payment.label} ${formatUsdc(payment.maxAmount)}`).join(' + ');
  return `${plan.purpose}: ${parts} = ${formatUsdc(planTotal(plan))} USDC at most`;
}

/** Pure: do all the plan's payments fit the per-payment cap and, together, the budget left? */
export function checkPlan(plan: SpendPlan, limits: Pick<SpendLimits, 'maxPerPayment' | 'budget'>, spent: bigint): SpendDecision {
  const largest = plan.payments.reduce((max, payment) => (payment.maxAmount > max ? payment.maxAmount : max), 0n);
  if (largest > limits.maxPerPayment) {
    return { allowed: false, limit: 'per_payment_cap', message: `${describePlan(plan)}; ${formatUsdc(largest)} USDC is over the per-payment cap of ${formatUsdc(limits.maxPerPayment)} USDC` };
  }
  const total = planTotal(plan);
  if (limits.budget !== undefined) {
    const left = limits.budget > spent ? limits.budget - spent : 0n;
    if (total > left) return { allowed: false, limit: 'budget', message: `${describePlan(plan)}, over the budget left: ${formatUsdc(left)} of ${formatUsdc(limits.budget)} USDC` };
  }
  return { allowed: true };
}

/**
 * An approval hook that approves the plan's payments without asking again (each at most its planned
 * amount, each once) and asks `otherwise` about any other payment (none: declined).
 */
export function approvingPlanned(plan: SpendPlan, otherwise?: (payment: PaymentRequest & { resource?: string }) => boolean | Promise<boolean>) {
  const left = plan.payments.map((payment) => payment.maxAmount);
  return async (payment: PaymentRequest & { resource?: string }): Promise<boolean> => {
    const index = left.findIndex((amount) => payment.amount <= amount);
    if (index >= 0) {
      left.splice(index, 1);
      return true;
    }
    return otherwise ? otherwise(payment) : false;
  };
}
