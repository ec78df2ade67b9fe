import { Injectable } from '@nestjs/common';
import type { ConversionJob } from '../conversion-jobs/conversion-job.entity.js';
import { ConversionJobs } from '../conversion-jobs/conversion-jobs.service.js';
import { JOB_ID_PATTERN } from '../conversion-jobs/job-id.js';
import { JobError, JobErrorCode } from './job.error.js';

/** The x402 jobs a client may reach by id: paid, of the x402 API, neither removed nor expired. */
@Injectable()
export class JobLookup {
  constructor(private readonly jobs: ConversionJobs) {}

  async live(jobId: string): Promise<ConversionJob> {
    if (!JOB_ID_PATTERN.test(jobId)) throw new JobError(JobErrorCode.InvalidJobId, `job_id must match ${JOB_ID_PATTERN.source}.`);
    const job = await this.jobs.find(jobId);
    // A job whose fee has not settled was never handed out; key API jobs are not reachable here.
    if (!job || job.origin !== 'x402' || job.status === 'awaiting_payment') {
      const removed = await this.jobs.removedAs(jobId);
      if (removed === 'deleted') throw new JobError(JobErrorCode.Deleted, 'The job was deleted.');
      if (removed) throw new JobError(JobErrorCode.Expired, 'The job and its result expired.');
      throw new JobError(JobErrorCode.NotFound, 'No such job.');
    }
    if (job.expiresAt.getTime() <= Date.now()) throw new JobError(JobErrorCode.Expired, 'The job and its result expired.');
    return job;
  }
}
