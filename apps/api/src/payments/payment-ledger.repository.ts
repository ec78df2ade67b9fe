import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { type EarlierPayment, PaymentIdentifierInUseError, type PaymentLedger, type PaymentReceipt, PaymentReplayError, type SettledPayment, type VerifiedPaymentRecord } from '@fileshift/x402-nest';
import { DataSource, type Repository } from 'typeorm';
import { type PreparedStatement, type PreparedStatements, preparedStatementsOf } from '../database/prepared-statements.js';
import { PaymentRecord } from './payment-record.entity.js';

const UNIQUE_VIOLATION = '23505';
const PAYMENT_ID_INDEX = 'uq_payment_records_payment_id';

/** The columns a receipt is made of. */
const RECEIPT_COLUMNS = 'scheme, network, amount_atomic, asset, pay_to, payer, tx_hash, settled_at';

/** The writes on a paying client's path, each one statement. */
const RECORD_VERIFIED: PreparedStatement = {
  name: 'payment_record_verified',
  text: `INSERT INTO payment_records (endpoint, job_id, scheme, network, payer, amount_atomic, asset, pay_to, nonce, payment_id, request_fingerprint, status)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 'verified') RETURNING id`,
};
const RECORD_SETTLED: PreparedStatement = {
  name: 'payment_record_settled',
  text: `UPDATE payment_records SET status = 'settled', tx_hash = $2, payer = $3, settled_at = $4 WHERE id = $1 RETURNING ${RECEIPT_COLUMNS}`,
};

/**
 * The payment ledger in PostgreSQL. A second record of the same nonce on a network is a replay.
 *
 * The writes on the paid path are one prepared statement each, sent as they are: TypeORM's insert and query
 * builder spent more time building them (0.5–0.8 ms each here) than PostgreSQL spent committing them (about
 * 0.4 ms a round trip), and on embedded PGlite parsing and planning them again cost the API thread as much.
 */
@Injectable()
export class PaymentLedgerRepository implements PaymentLedger {
  private readonly statements: PreparedStatements;

  constructor(
    @InjectRepository(PaymentRecord) private readonly records: Repository<PaymentRecord>,
    @InjectDataSource() dataSource: DataSource,
  ) {
    this.statements = preparedStatementsOf(dataSource);
  }

  async recordVerified(record: VerifiedPaymentRecord): Promise<string> {
    try {
      const { endpoint, reference, scheme, network, payer, amountAtomic, asset, payTo, nonce, paymentId, requestFingerprint } = record;
      const values = [endpoint, reference, scheme, network, payer, amountAtomic, asset, payTo, nonce, paymentId, requestFingerprint];
      const [inserted] = await this.statements.run<{ id: string }>(RECORD_VERIFIED, values);
      return inserted!.id;
    } catch (error) {
      const databaseError = error as { code?: string; constraint?: string };
      if (databaseError.code === UNIQUE_VIOLATION) {
        const identifierHeld = record.paymentId && databaseError.constraint === PAYMENT_ID_INDEX;
        throw identifierHeld ? new PaymentIdentifierInUseError(record.paymentId!) : new PaymentReplayError(record.nonce);
      }
      throw error;
    }
  }

  async paymentWithId(paymentId: string): Promise<EarlierPayment | undefined> {
    const [row] = (await this.records.query(
      `SELECT endpoint, request_fingerprint, status, ${RECEIPT_COLUMNS} FROM payment_records WHERE payment_id = $1 AND status <> 'failed' LIMIT 1`,
      [paymentId],
    )) as Array<StoredRecord & { endpoint: string; request_fingerprint: string | null; status: PaymentRecord['status'] }>;
    if (!row) return undefined;
    return { endpoint: row.endpoint, requestFingerprint: row.request_fingerprint, ...(row.status === 'settled' ? { receipt: receiptOf(row) } : {}) };
  }

  async discardUnverified(id: string): Promise<void> {
    await this.records.query(`DELETE FROM payment_records WHERE id = $1 AND status = 'verified'`, [id]);
  }

  async recordSettled(id: string, settlement: SettledPayment): Promise<PaymentReceipt> {
    const [row] = await this.statements.run<StoredRecord>(RECORD_SETTLED, [id, settlement.txHash, settlement.payer, settlement.settledAt.toISOString()]);
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
