import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { WebhookDelivery, type WebhookDeliveryState } from './webhook-delivery.entity.js';

/** How one attempt ended, as the job's status shows it. */
export interface AttemptEnd {
  state: Exclude<WebhookDeliveryState, 'delivering'>;
  statusCode: number | null;
  error: string | null;
}

/**
 * The webhooks of jobs (written with their job by the core's repository). Changes are conditional on the state they
 * come from, so a delivery that ended is never attempted again, whoever asks.
 */
@Injectable()
export class WebhookDeliveries {
  constructor(@InjectRepository(WebhookDelivery) private readonly deliveries: Repository<WebhookDelivery>) {}

  find(jobId: string): Promise<WebhookDelivery | null> {
    return this.deliveries.findOneBy({ jobId });
  }

  /** Counts an attempt and marks it under way; null when there is nothing to deliver (no webhook, or its delivery ended). */
  async beginAttempt(jobId: string): Promise<WebhookDelivery | null> {
    const begun = await this.deliveries
      .createQueryBuilder()
      .update()
      .set({ state: 'delivering', attempts: () => 'attempts + 1', lastAttemptAt: () => 'now()' })
      .where("job_id = :jobId AND state IN ('pending', 'delivering')", { jobId })
      .execute();
    return (begun.affected ?? 0) > 0 ? this.find(jobId) : null;
  }

  /** Writes how the attempt ended. */
  async endAttempt(jobId: string, end: AttemptEnd): Promise<void> {
    await this.deliveries.update(
      { jobId },
      { state: end.state, lastStatusCode: end.statusCode, lastError: end.error, ...(end.state === 'delivered' ? { deliveredAt: () => 'now()' } : {}) },
    );
  }

  /**
   * Webhooks of jobs that ended more than `graceSeconds` ago whose delivery has not ended, the longest untouched first:
   * the reconciler makes sure the queue holds each (a crash between a job's end and its enqueue, a lost Redis).
   */
  async unsent(graceSeconds: number, limit: number): Promise<string[]> {
    const rows = (await this.deliveries.query(
      `SELECT w.job_id FROM webhook_deliveries w JOIN conversion_jobs j ON j.id = w.job_id
       WHERE w.state IN ('pending', 'delivering') AND j.status IN ('done', 'failed')
         AND GREATEST(w.updated_at, j.finished_at) < now() - make_interval(secs => $1)
       ORDER BY w.updated_at ASC LIMIT $2`,
      [graceSeconds, limit],
    )) as Array<{ job_id: string }>;
    return rows.map((row) => row.job_id);
  }

  /** Marks the webhook looked at now: the reconciler's next passes look at the others first. */
  async touch(jobId: string): Promise<void> {
    await this.deliveries.createQueryBuilder().update().set({ updatedAt: () => 'now()' }).where('job_id = :jobId', { jobId }).execute();
  }
}
