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
 */
export interface PaymentLedger {
  /** Whether a payment with this nonce was already presented on this network (answers replays with a clear reason). */
  wasPresented(network: string, nonce: string): Promise<boolean>;
  recordVerified(record: VerifiedPaymentRecord): Promise<string>;
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
