import { Check, Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/** What is left of a removed job: enough to answer 410 instead of 404 for a while. */
@Entity({ name: 'job_tombstones' })
@Check('ck_job_tombstones_reason', `"reason" IN ('deleted', 'expired')`)
export class JobTombstone {
  @PrimaryColumn({ name: 'job_id', type: 'text' })
  jobId!: string;

  @Column({ type: 'text' })
  reason!: 'deleted' | 'expired';

  @Index('ix_job_tombstones_removed_at')
  @CreateDateColumn({ name: 'removed_at', type: 'timestamptz' })
  removedAt!: Date;
}
