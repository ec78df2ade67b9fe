import { Injectable, Logger } from '@nestjs/common';
import { JobRemovalService } from '../jobs/job-removal.service.js';
import { JobName, type JobPayloads } from '../queue/job-contract.js';
import { OnJob } from '../queue/on-job.decorator.js';

/** Removes conversion jobs and their files 24 hours after creation, leaving tombstones. */
@Injectable()
export class PurgeExpiredJob {
  private readonly logger = new Logger(PurgeExpiredJob.name);

  constructor(private readonly removal: JobRemovalService) {}

  @OnJob(JobName.PurgeExpired)
  async handle(payload: JobPayloads[JobName.PurgeExpired]): Promise<{ purged: number }> {
    const purged = await this.removal.purgeExpired();
    if (purged > 0) this.logger.log(`purge-expired (${payload.reason}): removed ${purged} expired job(s)`);
    return { purged };
  }
}
