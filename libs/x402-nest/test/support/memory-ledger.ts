import { randomUUID } from 'node:crypto';
import { type EarlierPayment, PaymentIdentifierInUseError, type PaymentLedger, type PaymentReceipt, PaymentReplayError, type SettledPayment, type VerifiedPaymentRecord } from '../../src/index.js';

export interface MemoryRecord extends VerifiedPaymentRecord {
  status: 'verified' | 'settled' | 'failed';
  receipt?: PaymentReceipt;
  txHash?: string;
  failureReason?: string;
}

/** The persistence boundary of a gate, in memory: for tests about the gate, not a database. */
export class MemoryLedger implements PaymentLedger {
  readonly records = new Map<string, MemoryRecord>();
  /** How many of the next recordSettled calls fail, as a database outage would. */
  failNextSettledRecords = 0;

  async recordVerified(record: VerifiedPaymentRecord): Promise<string> {
    if ([...this.records.values()].some((known) => known.network === record.network && known.nonce === record.nonce)) throw new PaymentReplayError(record.nonce);
    // As the database's partial unique index: an identifier is held by one payment that has not failed.
    if (record.paymentId && this.holderOf(record.paymentId)) throw new PaymentIdentifierInUseError(record.paymentId);
    const id = randomUUID();
    this.records.set(id, { ...record, status: 'verified' });
    return id;
  }

  async discardUnverified(id: string): Promise<void> {
    this.records.delete(id);
  }

  async recordSettled(id: string, settlement: SettledPayment): Promise<PaymentReceipt> {
    if (this.failNextSettledRecords > 0) {
      this.failNextSettledRecords--;
      throw new Error('connection terminated');
    }
    const record = this.records.get(id)!;
    const receipt: PaymentReceipt = {
      scheme: record.scheme,
      network: record.network,
      amountAtomic: record.amountAtomic,
      asset: record.asset,
      payTo: record.payTo,
      payer: settlement.payer,
      txHash: settlement.txHash,
      settledAt: settlement.settledAt,
    };
    Object.assign(record, { status: 'settled', txHash: settlement.txHash, receipt });
    return receipt;
  }

  async paymentWithId(paymentId: string): Promise<EarlierPayment | undefined> {
    const holder = this.holderOf(paymentId);
    return holder && { endpoint: holder.endpoint, requestFingerprint: holder.requestFingerprint, ...(holder.receipt ? { receipt: holder.receipt } : {}) };
  }

  private holderOf(paymentId: string): MemoryRecord | undefined {
    return [...this.records.values()].find((known) => known.paymentId === paymentId && known.status !== 'failed');
  }

  async recordFailed(id: string, reason: string): Promise<void> {
    Object.assign(this.records.get(id)!, { status: 'failed', failureReason: reason });
  }

  all(): MemoryRecord[] {
    return [...this.records.values()];
  }
}
