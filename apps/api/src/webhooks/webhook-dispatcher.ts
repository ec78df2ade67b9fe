import { Inject, Injectable, Logger } from '@nestjs/common';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/app-config.token.js';
import { JobName } from '../queue/job-contract.js';
import { JobService } from '../queue/job.service.js';
import { within } from '../queue/within.js';
import { WebhookDeliveries } from './webhook-deliveries.repository.js';

/** How long the end of a job waits for Redis to take its event before the reconciler is left to do it. */
const DISPATCH_TIMEOUT_MS = 2000;

/**
 * Hands a job's event to the webhooks queue once the job ended. The BullMQ job's id is the conversion job's, so adding
 * it again while the queue holds it (the end, then the reconciler) changes nothing; attempts and backoff are
 * BullMQ's, so a retry waits in Redis across restarts of the workers. Never fatal: the webhook's row stays pending
 * and the reconciler hands it over later.
 */
@Injectable()
export class WebhookDispatcher {
  private readonly logger = new Logger(WebhookDispatcher.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly deliveries: WebhookDeliveries,
    private readonly queue: JobService,
  ) {}

  /** The job ended: its event goes to the queue when it has a webhook still to deliver (a job without one is not looked up). */
  async jobEnded(job: { id: string; hasWebhook: boolean }): Promise<void> {
    if (!job.hasWebhook) return;
    const jobId = job.id;
    try {
      const delivery = await this.deliveries.find(jobId);
      if (delivery?.state === 'pending') await this.dispatch(jobId);
    } catch (error) {
      this.logger.warn(`the webhook of job ${jobId} waits for the reconciler: ${(error as Error).message}`);
    }
  }

  /** Adds the job's delivery to the queue (a no-op while the queue holds it). */
  async dispatch(jobId: string): Promise<void> {
    const { maxAttempts, retryBaseMs } = this.config.outbound.webhooks;
    await within(
      this.queue.enqueue(JobName.DeliverWebhook, { jobId }, { jobId, attempts: maxAttempts, backoff: { type: 'exponential', delay: retryBaseMs } }),
      DISPATCH_TIMEOUT_MS,
      'Redis',
    );
  }
}
