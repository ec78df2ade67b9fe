/** What the wallet's owner allows. Amounts are atomic units of USDC (6 decimals). */
export interface SpendLimits {
  /** The most one payment may cost. */
  maxPerPayment: bigint;
  /** The most all payments together may cost, across restarts. */
  totalBudget: bigint;
  /** CAIP-2 networks, e.g. eip155:8453. */
  allowedNetworks: readonly string[];
  /** Token addresses (compared case-insensitively). */
  allowedAssets: readonly string[];
  /** Recipients (compared case-insensitively). */
  allowedPayTo: readonly string[];
}

/** A payment the wallet is asked to sign. */
export interface PaymentRequest {
  network: string;
  asset: string;
  payTo: string;
  amount: bigint;
}

export type SpendLimit = 'network' | 'asset' | 'pay_to' | 'per_payment_cap' | 'budget';

export type SpendDecision = { allowed: true } | { allowed: false; limit: SpendLimit; message: string };

/** Pure: may this payment be signed, given what was spent so far? A refusal names the limit and what is left. */
export function checkSpend(request: PaymentRequest, limits: SpendLimits, spent: bigint): SpendDecision {
  const refuse = (limit: SpendLimit, message: string): SpendDecision => ({ allowed: false, limit, message });
  const budgetLeft = limits.totalBudget > spent ? limits.totalBudget - spent : 0n;
  if (!includes(limits.allowedNetworks, request.network)) {
    return refuse('network', `network ${request.network} is not allowed (allowed: ${limits.allowedNetworks.join(', ') || 'none'})`);
  }
  if (!includes(limits.allowedAssets, request.asset)) return refuse('asset', `asset ${request.asset} is not allowed on ${request.network}`);
  if (!includes(limits.allowedPayTo, request.payTo)) return refuse('pay_to', `recipient ${request.payTo} is not an allowed payTo address`);
  if (request.amount > limits.maxPerPayment) {
    return refuse('per_payment_cap', `${formatUsdc(request.amount)} USDC is over the per-payment cap of ${formatUsdc(limits.maxPerPayment)} USDC`);
  }
  if (request.amount > budgetLeft) {
    return refuse('budget', `${formatUsdc(request.amount)} USDC is over the budget left: ${formatUsdc(budgetLeft)} of ${formatUsdc(limits.totalBudget)} USDC`);
  }
  return { allowed: true };
}

/** 6-decimal atomic units as a USDC amount, e.g. 20000n → "0.02". */
export function formatUsdc(atomic: bigint): string {
  const whole = atomic / 1_000_000n;
  const fraction = (atomic % 1_000_000n).toString().padStart(6, '0').replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : `${whole}`;
}

/** "0.05" → 50000n; throws on anything but a non-negative amount with at most 6 decimals. */
export function parseUsdc(text: string): bigint {
  const match = /^(\d+)(?:\.(\d{1,6}))?$/.exec(text.trim());
  if (!match) throw new Error(`"${text}" is not a USDC amount such as 0.05`);
  return BigInt(match[1]!) * 1_000_000n + BigInt((match[2] ?? '').padEnd(6, '0'));
}

const includes = (list: readonly string[], value: string) => list.some((item) => item.toLowerCase() === value.toLowerCase());
