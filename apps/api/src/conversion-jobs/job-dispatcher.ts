import { Injectable, Logger } from '@nestjs/common';
import { JobService } from '../queue/job.service.js';
import { within } from '../queue/within.js';
import type { ConversionJob } from './conversion-job.entity.js';
import { conversionJobOf } from './conversion-queue.js';
import { CONVERT_JOB_OPTIONS } from './job-runs.js';

/** How long a request waits for Redis to take a job before it answers anyway. */
const DISPATCH_TIMEOUT_MS = 2000;

/**
 * Hands a job that may run (charged, or owing nothing) to the queue. Idempotent by job id, and never fatal: the job is durable
 * in the database as `queued`, so when Redis is slow or down the request still answers and the
 * reconciler hands the job over once Redis is back.
 */
@Injectable()
export class JobDispatcher {
  private readonly logger = new Logger(JobDispatcher.name);

  constructor(private readonly queue: JobService) {}

  /** True when the queue of the job's engine class took it within the bound. */
  async dispatch(job: Pick<ConversionJob, 'id' | 'engineClass'>): Promise<boolean> {
    try {
      // The add may still land once Redis answers; adding the same job id again later changes nothing.
      await within(this.queue.enqueue(conversionJobOf(job), { jobId: job.id }, { jobId: job.id, ...CONVERT_JOB_OPTIONS }), DISPATCH_TIMEOUT_MS, 'Redis');
      return true;
    } catch (error) {
      this.logger.warn(`job ${job.id} stays queued for the reconciler: ${(error as Error).message}`);
      return false;
    }
  }
}
