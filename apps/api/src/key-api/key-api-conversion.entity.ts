import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { ConversionJob } from '../conversion-jobs/conversion-job.entity.js';

/** A conversion the key API started: whose it is and the /tmp/ name its result is served under. Removed with its job. */
@Entity({ name: 'key_api_conversions' })
export class KeyApiConversion {
  @PrimaryColumn({ name: 'job_id', type: 'text' })
  jobId!: string;

  @ManyToOne(() => ConversionJob, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'job_id', foreignKeyConstraintName: 'fk_key_api_conversions_job_id' })
  job?: ConversionJob;

  /** The key that asked for it; null for a call without a key. */
  @Column({ name: 'api_key_id', type: 'uuid', nullable: true })
  apiKeyId!: string | null;

  /** The random part of the result's /tmp/ names, fixed when the conversion starts; the name is the credential. */
  @Index('uq_key_api_conversions_download_token', { unique: true })
  @Column({ name: 'download_token', type: 'text' })
  downloadToken!: string;
}
