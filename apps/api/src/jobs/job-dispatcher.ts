import { Injectable, Logger } from '@nestjs/common';
import { JobName } from '../queue/job-contract.js';
import { JobService } from '../queue/job.service.js';
import { within } from '../queue/within.js';
import { CONVERT_JOB_OPTIONS } from './job-runs.js';

/** How long a request waits for Redis to take a job before it answers anyway. */
const DISPATCH_TIMEOUT_MS = 2000;

/**
 * Hands a paid (or key API) job to the queue. Idempotent by job id, and never fatal: the job is durable
 * in the database as `queued`, so when Redis is slow or down the request still answers and the
 * reconciler hands the job over once Redis is back.
 */
@Injectable()
export class JobDispatcher {
  private readonly logger = new Logger(JobDispatcher.name);

  constructor(private readonly queue: JobService) {}

  /** True when the queue took the job within the bound. */
  async dispatch(jobId: string): Promise<boolean> {
    try {
      // The add may still land once Redis answers; adding the same job id again later changes nothing.
      await within(this.queue.enqueue(JobName.ConvertFile, { jobId }, { jobId, ...CONVERT_JOB_OPTIONS }), DISPATCH_TIMEOUT_MS, 'Redis');
      return true;
    } catch (error) {
      this.logger.warn(`job ${jobId} stays queued for the reconciler: ${(error as Error).message}`);
      return false;
    }
  }
}
