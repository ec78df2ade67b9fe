import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/**
 * `pending` (the job has not ended, or an attempt failed and the next one waits) → `delivering` (an attempt is under
 * way) → `delivered` (2xx) | `disabled` (the receiver answered 410) | `failed` (every attempt failed, or the answer
 * ruled out another one).
 */
export type WebhookDeliveryState = 'pending' | 'delivering' | 'delivered' | 'failed' | 'disabled';

/**
 * The webhook of a job: where its end is announced and how the delivery went (its last attempt). Written with the job,
 * removed with it.
 */
@Entity({ name: 'webhook_deliveries' })
@Check('ck_webhook_deliveries_state', `"state" IN ('pending', 'delivering', 'delivered', 'failed', 'disabled')`)
// A partial index for the reconciler; declared in the migration, which TypeORM does not compare.
@Index('ix_webhook_deliveries_unsent', { synchronize: false })
export class WebhookDelivery {
  @PrimaryColumn({ name: 'job_id', type: 'text' })
  jobId!: string;

  // Named, not imported: the conversion-jobs core sits above this folder (it writes the webhook with its job).
  @ManyToOne('ConversionJob', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'job_id', foreignKeyConstraintName: 'fk_webhook_deliveries_job_id' })
  job?: unknown;

  /** The caller's webhook_url, as checked when the job was asked for. */
  @Column({ type: 'text' })
  url!: string;

  /** The address the request reached the service at: the event's links and the did:web key that signs it name it. */
  @Column({ name: 'service_url', type: 'text' })
  serviceUrl!: string;

  @Column({ type: 'text', default: 'pending' })
  state!: WebhookDeliveryState;

  @Column({ type: 'integer', default: 0 })
  attempts!: number;

  @Column({ name: 'last_attempt_at', type: 'timestamptz', nullable: true })
  lastAttemptAt!: Date | null;

  /** The receiver's HTTP status at the last attempt; null when it gave none (unreachable, timed out, refused). */
  @Column({ name: 'last_status_code', type: 'integer', nullable: true })
  lastStatusCode!: number | null;

  /** Why the last attempt did not deliver, in words safe to show the caller. */
  @Column({ name: 'last_error', type: 'text', nullable: true })
  lastError!: string | null;

  @Column({ name: 'delivered_at', type: 'timestamptz', nullable: true })
  deliveredAt!: Date | null;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
