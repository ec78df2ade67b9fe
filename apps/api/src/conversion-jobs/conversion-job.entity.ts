import type { ConversionOptions, ConversionPlan, EngineClass, FailureType } from '@fileshift/converters';
import { Check, Column, CreateDateColumn, Entity, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/**
 * `awaiting_payment`: created when its fee was verified, not yet settled; never shown to a client nor run.
 * `queued` (paid, waiting for a worker) → `processing` (a worker holds its lease) → `done` | `failed`.
 */
export type ConversionJobStatus = 'awaiting_payment' | 'queued' | 'processing' | 'done' | 'failed';

/** Which API created a job: its result is sold (x402) or served under /tmp/ (key API). */
export type ConversionJobOrigin = 'x402' | 'key_api';

/** One conversion requested through either API; removed (files and details) 24 hours after creation. */
@Entity({ name: 'conversion_jobs' })
@Check('ck_conversion_jobs_origin', `"origin" IN ('x402', 'key_api')`)
@Check('ck_conversion_jobs_result_purchase', `"result_purchase" IN ('buying', 'paid')`)
@Check('ck_conversion_jobs_status', `"status" IN ('awaiting_payment', 'queued', 'processing', 'done', 'failed')`)
// Partial indexes for the reconciler; declared in the migration, which TypeORM does not compare.
@Index('ix_conversion_jobs_unfinished', { synchronize: false })
@Index('ix_conversion_jobs_result_buying', { synchronize: false })
export class ConversionJob {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ type: 'text', default: 'x402' })
  origin!: ConversionJobOrigin;

  /** The key API key that created the job; null for x402 jobs and key API calls without a key. */
  @Column({ name: 'api_key_id', type: 'uuid', nullable: true })
  apiKeyId!: string | null;

  @Column({ type: 'text' })
  status!: ConversionJobStatus;

  @Column({ name: 'progress_percent', type: 'integer', default: 0 })
  progressPercent!: number;

  @Column({ name: 'original_filename', type: 'text' })
  originalFilename!: string;

  @Column({ name: 'file_created_at', type: 'timestamptz' })
  fileCreatedAt!: Date;

  @Column({ name: 'input_size_bytes', type: 'bigint', transformer: { to: (v: number) => v, from: (v: string) => Number(v) } })
  inputSizeBytes!: number;

  @Column({ name: 'input_sha256', type: 'text' })
  inputSha256!: string;

  @Column({ name: 'detected_input_format', type: 'text' })
  detectedInputFormat!: string;

  @Column({ name: 'target_format', type: 'text' })
  targetFormat!: string;

  /** How the conversion runs, as planned from the live workers' engines when it was asked for (null: jobs of older versions). */
  @Column({ type: 'jsonb', nullable: true })
  plan!: ConversionPlan | null;

  /** The conversion's options, validated against its plan before payment. */
  @Column({ type: 'jsonb' })
  options!: ConversionOptions;

  /** The queue the job waits in (its plan's engine class). */
  @Column({ name: 'engine_class', type: 'text', nullable: true })
  engineClass!: EngineClass | null;

  /** How many files the conversion wrote (one per page for pdf → png); null until it is done. */
  @Column({ name: 'result_count', type: 'integer', nullable: true })
  resultCount!: number | null;

  @Column({ name: 'result_size_bytes', type: 'bigint', nullable: true, transformer: { to: (v: number | null) => v, from: (v: string | null) => (v === null ? null : Number(v)) } })
  resultSizeBytes!: number | null;

  @Column({ name: 'failure_type', type: 'text', nullable: true })
  failureType!: FailureType | null;

  @Column({ name: 'failure_message', type: 'text', nullable: true })
  failureMessage!: string | null;

  @Index('uq_conversion_jobs_idempotency_key', { unique: true })
  @Column({ name: 'idempotency_key', type: 'text', nullable: true })
  idempotencyKey!: string | null;

  @Column({ name: 'request_fingerprint', type: 'text' })
  requestFingerprint!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;

  @Column({ name: 'finished_at', type: 'timestamptz', nullable: true })
  finishedAt!: Date | null;

  /** null until a purchase starts; 'buying' while one settles (so concurrent purchases settle once); 'paid' after. */
  @Column({ name: 'result_purchase', type: 'text', nullable: true })
  resultPurchase!: 'buying' | 'paid' | null;

  /** The worker run that holds the job (a random token per run); null when no run holds it. */
  @Column({ name: 'lease_owner', type: 'text', nullable: true })
  leaseOwner!: string | null;

  /** Until when the holder's lease runs; it renews it every few seconds while converting. */
  @Column({ name: 'lease_expires_at', type: 'timestamptz', nullable: true })
  leaseExpiresAt!: Date | null;

  /** How many runs claimed the job; past the limit it fails instead of running again. */
  @Column({ type: 'integer', default: 0 })
  attempts!: number;

  @Index('uq_conversion_jobs_download_token', { unique: true })
  @Column({ name: 'download_token', type: 'text', nullable: true })
  downloadToken!: string | null;

  @Column({ name: 'download_expires_at', type: 'timestamptz', nullable: true })
  downloadExpiresAt!: Date | null;

  @Index('ix_conversion_jobs_expires_at')
  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;
}
