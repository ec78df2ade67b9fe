import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { JobName } from '../queue/job-contract.js';
import { JobService } from '../queue/job.service.js';

/** Expired jobs answer 410 at once (status checks expires_at); the sweep only reclaims space. */
export const PURGE_EVERY_MS = 5 * 60 * 1000;

/** Registers the recurring purge and runs one at start-up, so nothing outlives a stopped worker. */
@Injectable()
export class MaintenanceScheduleService implements OnApplicationBootstrap {
  constructor(private readonly jobs: JobService) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.jobs.schedule(JobName.PurgeExpired, PURGE_EVERY_MS, { reason: 'schedule' });
    await this.jobs.enqueue(JobName.PurgeExpired, { reason: 'startup' });
  }
}
