import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { LessThan, LessThanOrEqual, type Repository } from 'typeorm';
import { ConversionJob, type ConversionJobStatus } from './conversion-job.entity.js';
import { JobTombstone } from './job-tombstone.entity.js';

/** The conversion jobs in PostgreSQL. */
@Injectable()
export class ConversionJobsRepository {
  constructor(
    @InjectRepository(ConversionJob) private readonly jobs: Repository<ConversionJob>,
    @InjectRepository(JobTombstone) private readonly tombstones: Repository<JobTombstone>,
  ) {}

  create(job: Omit<ConversionJob, 'createdAt' | 'updatedAt'>): Promise<ConversionJob> {
    return this.jobs.save(this.jobs.create(job));
  }

  find(id: string): Promise<ConversionJob | null> {
    return this.jobs.findOneBy({ id });
  }

  findByIdempotencyKey(key: string): Promise<ConversionJob | null> {
    return this.jobs.findOneBy({ idempotencyKey: key });
  }

  findByDownloadToken(token: string): Promise<ConversionJob | null> {
    return this.jobs.findOneBy({ downloadToken: token });
  }

  /** Claims the result purchase of a done job; false when another purchase is settling or done. */
  async claimPurchase(id: string): Promise<boolean> {
    const result = await this.jobs
      .createQueryBuilder()
      .update()
      .set({ resultPurchase: 'buying' })
      .where("id = :id AND status = 'done' AND result_purchase IS NULL", { id })
      .execute();
    return (result.affected ?? 0) > 0;
  }

  async update(
    id: string,
    changes: Partial<Pick<ConversionJob, 'status' | 'progressPercent' | 'resultSizeBytes' | 'failureType' | 'failureMessage' | 'finishedAt' | 'resultPurchase' | 'downloadToken' | 'downloadExpiresAt'>>,
  ): Promise<void> {
    await this.jobs.update({ id }, changes);
  }

  /** Moves a job to `to` only from one of `from`: two workers cannot both start or finish it. */
  async transition(id: string, from: ConversionJobStatus[], to: ConversionJobStatus): Promise<boolean> {
    const result = await this.jobs
      .createQueryBuilder()
      .update()
      .set({ status: to })
      .where('id = :id AND status IN (:...from)', { id, from })
      .execute();
    return (result.affected ?? 0) > 0;
  }

  /** Removes a job never paid for: no tombstone, it never existed for the client. */
  async delete(id: string): Promise<void> {
    await this.jobs.delete({ id });
  }

  /** Removes a job and leaves a tombstone, in one transaction. */
  async remove(id: string, reason: JobTombstone['reason']): Promise<void> {
    await this.jobs.manager.transaction(async (manager) => {
      await manager.delete(ConversionJob, { id });
      await manager.upsert(JobTombstone, { jobId: id, reason }, ['jobId']);
    });
  }

  findTombstone(id: string): Promise<JobTombstone | null> {
    return this.tombstones.findOneBy({ jobId: id });
  }

  findExpired(now: Date, limit: number): Promise<ConversionJob[]> {
    return this.jobs.find({ where: { expiresAt: LessThanOrEqual(now) }, take: limit, order: { expiresAt: 'ASC' } });
  }

  async forgetTombstonesBefore(cutoff: Date): Promise<number> {
    return (await this.tombstones.delete({ removedAt: LessThan(cutoff) })).affected ?? 0;
  }
}
