import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { type PaymentLedger, type PaymentReceipt, PaymentReplayError, type SettledPayment, type VerifiedPaymentRecord } from '@fileshift/x402-nest';
import { QueryFailedError, type Repository } from 'typeorm';
import { PaymentRecord } from './payment-record.entity.js';

const UNIQUE_VIOLATION = '23505';

/** The payment ledger in PostgreSQL. A second record of the same nonce on a network is a replay. */
@Injectable()
export class PaymentLedgerRepository implements PaymentLedger {
  constructor(@InjectRepository(PaymentRecord) private readonly records: Repository<PaymentRecord>) {}

  async recordVerified(record: VerifiedPaymentRecord): Promise<string> {
    try {
      // One INSERT … RETURNING (save() would wrap it in a transaction: three round trips on the paid path).
      const inserted = await this.records.insert({
        endpoint: record.endpoint,
        jobId: record.reference,
        scheme: record.scheme,
        network: record.network,
        payer: record.payer,
        amountAtomic: record.amountAtomic,
        asset: record.asset,
        payTo: record.payTo,
        nonce: record.nonce,
        status: 'verified',
      });
      return (inserted.identifiers[0] as { id: string }).id;
    } catch (error) {
      if (error instanceof QueryFailedError && (error.driverError as { code?: string }).code === UNIQUE_VIOLATION) {
        throw new PaymentReplayError(record.nonce);
      }
      throw error;
    }
  }

  async discardUnverified(id: string): Promise<void> {
    await this.records.delete({ id, status: 'verified' });
  }

  async recordSettled(id: string, settlement: SettledPayment): Promise<PaymentReceipt> {
    const updated = await this.records
      .createQueryBuilder()
      .update()
      .set({ status: 'settled', txHash: settlement.txHash, payer: settlement.payer, settledAt: settlement.settledAt })
      .where({ id })
      .returning('*')
      .execute();
    const row = (updated.raw as StoredRecord[])[0];
    if (!row) throw new Error(`payment record ${id} vanished before it was marked settled`);
    return receiptOf(row);
  }

  async recordFailed(id: string, reason: string): Promise<void> {
    await this.records.update({ id }, { status: 'failed', failureReason: reason.slice(0, 500) });
  }

  /** What became of the payments for an operation on a job: settled wins over verified, verified over failed. */
  async outcomeFor(endpoint: string, jobId: string): Promise<'settled' | 'verified' | 'failed' | 'none'> {
    const rows: Array<{ status: PaymentRecord['status'] }> = await this.records.find({ select: { status: true }, where: { endpoint, jobId } });
    for (const status of ['settled', 'verified', 'failed'] as const) if (rows.some((row) => row.status === status)) return status;
    return 'none';
  }

  /** The receipt of the settled payment for an operation on a job (e.g. its result), if there is one. */
  async settledReceipt(endpoint: string, jobId: string): Promise<PaymentReceipt | undefined> {
    const row = await this.records
      .createQueryBuilder('record')
      .select('record.*')
      .where({ endpoint, jobId, status: 'settled' })
      .orderBy('record.settled_at', 'DESC')
      .getRawOne<StoredRecord>();
    return row ? receiptOf(row) : undefined;
  }
}

/** A payment_records row as the database returns it (column names). */
interface StoredRecord {
  scheme: string;
  network: string;
  amount_atomic: string;
  asset: string;
  pay_to: string;
  payer: string | null;
  tx_hash: string | null;
  settled_at: Date | string | null;
}

function receiptOf(row: StoredRecord): PaymentReceipt {
  return {
    scheme: row.scheme,
    network: row.network,
    amountAtomic: String(row.amount_atomic),
    asset: row.asset,
    payTo: row.pay_to,
    payer: row.payer,
    txHash: row.tx_hash ?? '',
    settledAt: new Date(row.settled_at ?? Date.now()),
  };
}
