import { Injectable, Logger } from '@nestjs/common';
import { JobName, type JobPayloads } from '../queue/job-contract.js';
import { OnJob } from '../queue/on-job.decorator.js';

/** Removes what has outlived its retention. Conversion jobs and files join this sweep with the jobs feature. */
@Injectable()
export class PurgeExpiredJob {
  private readonly logger = new Logger(PurgeExpiredJob.name);

  @OnJob(JobName.PurgeExpired)
  async handle(payload: JobPayloads[JobName.PurgeExpired]): Promise<{ purged: number }> {
    this.logger.log(`purge-expired (${payload.reason}): nothing expirable is stored yet`);
    return { purged: 0 };
  }
}
