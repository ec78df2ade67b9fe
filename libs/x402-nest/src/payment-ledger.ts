import type { PaymentReceipt } from './route-payment.js';

/** What the gate records about a payment; the application stores it (e.g. in PostgreSQL). */
export interface VerifiedPaymentRecord {
  endpoint: string;
  scheme: string;
  network: string;
  payer: string | null;
  amountAtomic: string;
  asset: string;
  payTo: string;
  nonce: string;
  reference: string | null;
}

export interface SettledPayment {
  txHash: string;
  payer: string | null;
  settledAt: Date;
}

/**
 * Persistence boundary of the payment gate. `recordVerified` must refuse a nonce it has seen on
 * the same network by throwing {@link PaymentReplayError}: that is what stops a replayed payload.
 * The gate calls it while the facilitator verifies the payment, and hands the record back with
 * `discardUnverified` when verification did not succeed.
 */
export interface PaymentLedger {
  /** Durably records the payment, refusing a nonce already recorded on its network; answers the record's id. */
  recordVerified(record: VerifiedPaymentRecord): Promise<string>;
  /** Removes the record of a payment that was not verified, so that the same signed payment may be presented again. */
  discardUnverified(id: string): Promise<void>;
  /** Marks the payment settled and answers the receipt as stored: the one the client is handed. */
  recordSettled(id: string, settlement: SettledPayment): Promise<PaymentReceipt>;
  recordFailed(id: string, reason: string): Promise<void>;
}

export class PaymentReplayError extends Error {
  constructor(readonly nonce: string) {
    super(`payment nonce ${nonce} was already used`);
    this.name = 'PaymentReplayError';
  }
}
