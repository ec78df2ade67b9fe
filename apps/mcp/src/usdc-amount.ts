/** Atomic units as a USDC amount with all 6 decimals, as the service writes prices: 22000n → "0.022000". */
export function formatAmount(atomic: bigint): string {
  const whole = atomic / 1_000_000n;
  return `${whole}.${(atomic % 1_000_000n).toString().padStart(6, '0')}`;
}
