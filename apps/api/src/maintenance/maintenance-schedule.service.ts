import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { JobName } from '../queue/job-contract.js';
import { JobService } from '../queue/job.service.js';

const PURGE_EVERY_MS = 10 * 60 * 1000;

/** Registers the recurring purge and runs one at start-up, so nothing outlives a stopped worker. */
@Injectable()
export class MaintenanceScheduleService implements OnApplicationBootstrap {
  constructor(private readonly jobs: JobService) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.jobs.schedule(JobName.PurgeExpired, PURGE_EVERY_MS, { reason: 'schedule' });
    await this.jobs.enqueue(JobName.PurgeExpired, { reason: 'startup' });
  }
}
