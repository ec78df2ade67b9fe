import { Inject, Injectable, Logger } from '@nestjs/common';
import { ConversionJobs } from '../conversion-jobs/conversion-jobs.service.js';
import { JobName, type JobPayloads } from '../queue/job-contract.js';
import { OnJob } from '../queue/on-job.decorator.js';
import { EXPIRING_UPLOADS, type ExpiringUploads } from './expiring-uploads.port.js';

/** Removes conversion jobs (leaving tombstones) and key API uploads, with their files, 24 hours after creation. */
@Injectable()
export class PurgeExpiredJob {
  private readonly logger = new Logger(PurgeExpiredJob.name);

  constructor(
    private readonly jobs: ConversionJobs,
    @Inject(EXPIRING_UPLOADS) private readonly keyApiUploads: ExpiringUploads,
  ) {}

  @OnJob(JobName.PurgeExpired)
  async handle(payload: JobPayloads[JobName.PurgeExpired]): Promise<{ purged: number; purgedUploads: number }> {
    const purged = await this.jobs.purgeExpired();
    const purgedUploads = await this.keyApiUploads.purgeExpired();
    if (purged + purgedUploads > 0) this.logger.log(`purge-expired (${payload.reason}): removed ${purged} job(s) and ${purgedUploads} key API upload(s)`);
    return { purged, purgedUploads };
  }
}
