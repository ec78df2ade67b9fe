import { Inject, Injectable } from '@nestjs/common';
import { FILE_STORAGE, type FileStorage } from '../storage/file-storage.js';
import type { ConversionJob } from './conversion-job.entity.js';
import { ConversionJobsRepository } from './conversion-jobs.repository.js';
import { jobInputKeys, jobResultKeys } from './job-storage-keys.js';

/** Tombstones outlive their jobs by a week so late callers still hear 410, not 404. */
export const TOMBSTONE_RETENTION_MS = 7 * 24 * 3600 * 1000;

/**
 * Removes a job's files and details at once, leaving a tombstone. A run converting the job notices at
 * its next heartbeat (the row is gone), kills its engine and removes whatever it had put into storage.
 */
@Injectable()
export class JobRemovalService {
  constructor(
    private readonly jobs: ConversionJobsRepository,
    @Inject(FILE_STORAGE) private readonly storage: FileStorage,
  ) {}

  async remove(job: ConversionJob, reason: 'deleted' | 'expired'): Promise<void> {
    await this.jobs.remove(job.id, reason);
    await this.deleteFiles(job);
  }

  /** Removes a job whose fee never settled, and its files: it never existed for the client (no tombstone). */
  async discardUnpaid(job: ConversionJob): Promise<void> {
    await this.jobs.delete(job.id);
    await this.deleteFiles(job);
  }

  private async deleteFiles(job: ConversionJob): Promise<void> {
    await Promise.all([...jobInputKeys(job.id, job.joinPlan?.members.length ?? 1), ...jobResultKeys(job.id, job.targetFormat, job.resultCount)].map((key) => this.storage.delete(key)));
  }

  /** Removes every job past its 24 hours; returns how many. */
  async purgeExpired(now = new Date()): Promise<number> {
    let removed = 0;
    for (;;) {
      const batch = await this.jobs.findExpired(now, 100);
      for (const job of batch) await this.remove(job, 'expired');
      removed += batch.length;
      if (batch.length < 100) break;
    }
    await this.jobs.forgetTombstonesBefore(new Date(now.getTime() - TOMBSTONE_RETENTION_MS));
    return removed;
  }
}
