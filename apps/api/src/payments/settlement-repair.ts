/** No request can still be settling a payment this long after it was verified (x402 timeouts are minutes). */
export const SETTLE_WINDOW_SECONDS = 15 * 60;

/** What the ledger says of a payment for a job (or for its result). */
export type LedgerOutcome = 'settled' | 'verified' | 'failed' | 'none';

/**
 * A job (or a result purchase) whose payment the API did not see through (it crashed, or its database
 * blinked after settlement): the ledger decides. Settled → complete it. Failed or never recorded, and
 * old enough that no request can still be settling it → undo it. Verified but never marked → the outcome
 * is unknown (the settlement may have happened on chain): keep it and report it.
 */
export function repairUnsettled(ledger: LedgerOutcome, ageSeconds: number, settleWindowSeconds: number): 'complete' | 'undo' | 'leave' | 'report' {
  if (ledger === 'settled') return 'complete';
  if (ageSeconds < settleWindowSeconds) return 'leave';
  return ledger === 'verified' ? 'report' : 'undo';
}
