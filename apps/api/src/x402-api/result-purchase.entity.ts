import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { ConversionJob } from '../conversion-jobs/conversion-job.entity.js';

/**
 * The x402 API's sale of a job's result: `buying` while one purchase settles (so concurrent purchases settle once),
 * `paid` after, with the download URL handed out for it. Removed with its job.
 */
@Entity({ name: 'x402_result_purchases' })
@Check('ck_x402_result_purchases_state', `"state" IN ('buying', 'paid')`)
// A partial index for the reconciler; declared in the migration, which TypeORM does not compare.
@Index('ix_x402_result_purchases_buying', { synchronize: false })
export class ResultPurchase {
  @PrimaryColumn({ name: 'job_id', type: 'text' })
  jobId!: string;

  @ManyToOne(() => ConversionJob, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'job_id', foreignKeyConstraintName: 'fk_x402_result_purchases_job_id' })
  job?: ConversionJob;

  @Column({ type: 'text' })
  state!: 'buying' | 'paid';

  /** The name of the download URL: random, valid until `downloadExpiresAt` (renewed free on a later result call). */
  @Index('uq_x402_result_purchases_download_token', { unique: true })
  @Column({ name: 'download_token', type: 'text', nullable: true })
  downloadToken!: string | null;

  @Column({ name: 'download_expires_at', type: 'timestamptz', nullable: true })
  downloadExpiresAt!: Date | null;

  /** The signed delivery record of the sale (compact JWS), the same for every download of the result. */
  @Column({ name: 'delivery_record', type: 'text', nullable: true })
  deliveryRecord!: string | null;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
