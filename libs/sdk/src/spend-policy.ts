/** What a payer may sign. Amounts are atomic units of USDC (6 decimals). */
export interface SpendLimits {
  /** The networks and assets to pay with; anything else is refused (a dev-chain token must be listed). */
  allow: ReadonlyArray<{ network: string; asset: string }>;
  /** The most one payment may cost. */
  maxPerPayment: bigint;
  /** The most all payments together may cost; none when absent. */
  budget?: bigint;
  /** Recipients to pay; any when absent. */
  allowPayTo?: readonly string[];
}

/** A payment the payer is asked to sign. */
export interface PaymentRequest {
  network: string;
  asset: string;
  payTo: string;
  amount: bigint;
}

export type SpendLimit = 'network_or_asset' | 'pay_to' | 'per_payment_cap' | 'budget';

export type SpendDecision = { allowed: true } | { allowed: false; limit: SpendLimit; message: string };

/** Pure: may this payment be signed, given what was spent so far? A refusal names the limit and what is left. */
export function checkSpend(request: PaymentRequest, limits: SpendLimits, spent: bigint): SpendDecision {
  const refuse = (limit: SpendLimit, message: string): SpendDecision => ({ allowed: false, limit, message });
  if (!limits.allow.some((entry) => same(entry.network, request.network) && same(entry.asset, request.asset))) {
    return refuse('network_or_asset', `asset ${request.asset} on ${request.network} is not allowed (allowed: ${describeAllowed(limits)})`);
  }
  if (limits.allowPayTo && !limits.allowPayTo.some((payTo) => same(payTo, request.payTo))) {
    return refuse('pay_to', `recipient ${request.payTo} is not an allowed payTo address`);
  }
  if (request.amount > limits.maxPerPayment) {
    return refuse('per_payment_cap', `${formatUsdc(request.amount)} USDC is over the per-payment cap of ${formatUsdc(limits.maxPerPayment)} USDC`);
  }
  if (limits.budget !== undefined) {
    const left = limits.budget > spent ? limits.budget - spent : 0n;
    if (request.amount > left) {
      return refuse('budget', `${formatUsdc(request.amount)} USDC is over the budget left: ${formatUsdc(left)} of ${formatUsdc(limits.budget)} USDC`);
    }
  }
  return { allowed: true };
}

/** The allowed assets and networks, for messages. */
export function describeAllowed({ allow }: Pick<SpendLimits, 'allow'>): string {
  return allow.map((entry) => `${entry.asset} on ${entry.network}`).join(', ') || 'none';
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

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
