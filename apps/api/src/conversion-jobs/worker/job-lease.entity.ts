import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { ConversionJob } from '../conversion-job.entity.js';

/**
 * Which worker run holds a job, until when, and how many runs claimed it. Only the holder renews, finishes or gives
 * the job up; a run whose lease ran out may be replaced. Removed with its job.
 */
@Entity({ name: 'job_leases' })
export class JobLeaseRecord {
  @PrimaryColumn({ name: 'job_id', type: 'text' })
  jobId!: string;

  @ManyToOne(() => ConversionJob, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'job_id', foreignKeyConstraintName: 'fk_job_leases_job_id' })
  job?: ConversionJob;

  /** The run that holds the job (a random token per run); null when no run holds it. */
  @Column({ type: 'text', nullable: true })
  owner!: string | null;

  /** Until when the holder's lease runs; it renews it every few seconds while converting. */
  @Column({ name: 'expires_at', type: 'timestamptz', nullable: true })
  expiresAt!: Date | null;

  /** How many runs claimed the job; past the limit it fails instead of running again. */
  @Column({ type: 'integer', default: 0 })
  runs!: number;
}
