import { Check, Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

export type PaymentRecordStatus = 'verified' | 'settled' | 'failed';

/**
 * One x402 payment we verified, and what became of it. The authorization nonce is unique per
 * network, so a replayed payload is refused by the database before the chain would refuse it.
 */
@Entity({ name: 'payment_records' })
@Index('uq_payment_records_network_nonce', ['network', 'nonce'], { unique: true })
@Check('ck_payment_records_status', `"status" IN ('verified', 'settled', 'failed')`)
// Partial (WHERE payment_id IS NOT NULL AND status <> 'failed'): made by its migration, which TypeORM cannot compare.
@Index('uq_payment_records_payment_id', { synchronize: false })
export class PaymentRecord {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ type: 'text' })
  endpoint!: string;

  @Index('ix_payment_records_job_id')
  @Column({ name: 'job_id', type: 'text', nullable: true })
  jobId!: string | null;

  @Column({ type: 'text' })
  scheme!: string;

  @Column({ type: 'text' })
  network!: string;

  @Column({ type: 'text', nullable: true })
  payer!: string | null;

  @Column({ name: 'amount_atomic', type: 'numeric', precision: 78, scale: 0 })
  amountAtomic!: string;

  @Column({ type: 'text' })
  asset!: string;

  @Column({ name: 'pay_to', type: 'text' })
  payTo!: string;

  @Column({ type: 'text' })
  nonce!: string;

  @Column({ type: 'text' })
  status!: PaymentRecordStatus;

  /** The payment's identifier (x402 `payment-identifier`) scoped by its payer: held while the payment has not failed. */
  @Column({ name: 'payment_id', type: 'text', nullable: true })
  paymentId!: string | null;

  /** What the identified request was: a repeat must be the same request. */
  @Column({ name: 'request_fingerprint', type: 'text', nullable: true })
  requestFingerprint!: string | null;

  @Column({ name: 'tx_hash', type: 'text', nullable: true })
  txHash!: string | null;

  @Column({ name: 'failure_reason', type: 'text', nullable: true })
  failureReason!: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'settled_at', type: 'timestamptz', nullable: true })
  settledAt!: Date | null;
}
