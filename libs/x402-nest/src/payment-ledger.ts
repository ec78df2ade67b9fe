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
  /** The payment's identifier scoped by its payer (x402 `payment-identifier`), when it carries one. */
  paymentId: string | null;
  /** What the request was (route, path, price, body): the identifier answers only the same request again. */
  requestFingerprint: string | null;
}

/** A payment recorded earlier with the same identifier, not failed: settled (with its receipt) or still in flight. */
export interface EarlierPayment {
  endpoint: string;
  requestFingerprint: string | null;
  receipt?: PaymentReceipt;
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
  /**
   * Durably records the payment, refusing a nonce already recorded on its network (PaymentReplayError) and an
   * identifier held by another payment that has not failed (PaymentIdentifierInUseError); answers the record's id.
   */
  recordVerified(record: VerifiedPaymentRecord): Promise<string>;
  /** The payment, verified or settled, that holds this scoped identifier. */
  paymentWithId(paymentId: string): Promise<EarlierPayment | undefined>;
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

export class PaymentIdentifierInUseError extends Error {
  constructor(readonly paymentId: string) {
    super(`payment identifier ${paymentId} is held by another payment`);
    this.name = 'PaymentIdentifierInUseError';
  }
}
