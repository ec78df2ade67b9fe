import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/app-config.token.js';
import { JobName } from '../queue/job-contract.js';
import { JobService } from '../queue/job.service.js';
import { within } from '../queue/within.js';

/** Expired jobs answer 410 at once (status checks expires_at); the sweep only reclaims space. */
export const PURGE_EVERY_MS = 5 * 60 * 1000;
/** A Redis that does not answer within this makes the check wait for the next tick, not hang. */
const QUEUE_CALL_TIMEOUT_MS = 3000;

/**
 * Registers the recurring purge and runs one at start-up, so nothing outlives a stopped worker; then checks on the
 * reconciler's interval that the schedule is still there (a Redis that restarted empty lost it).
 */
@Injectable()
export class MaintenanceScheduleService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(MaintenanceScheduleService.name);
  private timer?: NodeJS.Timeout;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly jobs: JobService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.jobs.schedule(JobName.PurgeExpired, PURGE_EVERY_MS, { reason: 'schedule' });
    await this.jobs.enqueue(JobName.PurgeExpired, { reason: 'startup' });
    this.timer = setInterval(() => void this.keepScheduled(), this.config.jobCycle.reconcileIntervalSeconds * 1000).unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  private async keepScheduled(): Promise<void> {
    try {
      if (!(await within(this.jobs.isScheduled(JobName.PurgeExpired), QUEUE_CALL_TIMEOUT_MS, 'Redis'))) {
        await within(this.jobs.schedule(JobName.PurgeExpired, PURGE_EVERY_MS, { reason: 'schedule' }), QUEUE_CALL_TIMEOUT_MS, 'Redis');
      }
    } catch (error) {
      this.logger.warn(`purge schedule not checked; next try in ${this.config.jobCycle.reconcileIntervalSeconds} s: ${(error as Error).message}`);
    }
  }
}
