import { randomUUID } from 'node:crypto';
import { type PaymentLedger, type PaymentReceipt, PaymentReplayError, type SettledPayment, type VerifiedPaymentRecord } from '../../src/index.js';

export interface MemoryRecord extends VerifiedPaymentRecord {
  status: 'verified' | 'settled' | 'failed';
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
    Object.assign(record, { status: 'settled', txHash: settlement.txHash });
    return {
      scheme: record.scheme,
      network: record.network,
      amountAtomic: record.amountAtomic,
      asset: record.asset,
      payTo: record.payTo,
      payer: settlement.payer,
      txHash: settlement.txHash,
      settledAt: settlement.settledAt,
    };
  }

  async recordFailed(id: string, reason: string): Promise<void> {
    Object.assign(this.records.get(id)!, { status: 'failed', failureReason: reason });
  }

  all(): MemoryRecord[] {
    return [...this.records.values()];
  }
}
