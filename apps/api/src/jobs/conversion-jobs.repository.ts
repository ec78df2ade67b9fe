import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { ConversionJob, type ConversionJobStatus } from './conversion-job.entity.js';

/** The conversion jobs in PostgreSQL. */
@Injectable()
export class ConversionJobsRepository {
  constructor(@InjectRepository(ConversionJob) private readonly jobs: Repository<ConversionJob>) {}

  create(job: Omit<ConversionJob, 'createdAt' | 'updatedAt'>): Promise<ConversionJob> {
    return this.jobs.save(this.jobs.create(job));
  }

  find(id: string): Promise<ConversionJob | null> {
    return this.jobs.findOneBy({ id });
  }

  findByIdempotencyKey(key: string): Promise<ConversionJob | null> {
    return this.jobs.findOneBy({ idempotencyKey: key });
  }

  async update(id: string, changes: Partial<Pick<ConversionJob, 'status' | 'progressPercent' | 'resultSizeBytes' | 'failureType' | 'failureMessage' | 'finishedAt'>>): Promise<void> {
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

  async delete(id: string): Promise<void> {
    await this.jobs.delete({ id });
  }
}
