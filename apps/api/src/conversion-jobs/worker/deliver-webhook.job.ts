import { Inject, Injectable, Logger } from '@nestjs/common';
import { guardedFetch, OutboundError } from '@fileshift/outbound';
import { UnrecoverableError } from 'bullmq';
import type { AppConfig } from '../../config/app-config.js';
import { APP_CONFIG } from '../../config/app-config.token.js';
import { JobName, type JobPayloads } from '../../queue/job-contract.js';
import { OnJob } from '../../queue/on-job.decorator.js';
import { type DeliveryAnswer, deliveryVerdict } from '../../webhooks/delivery-verdict.js';
import { WebhookDeliveries } from '../../webhooks/webhook-deliveries.repository.js';
import type { WebhookDeliveryState } from '../../webhooks/webhook-delivery.entity.js';
import { webhookEventOf } from '../../webhooks/webhook-event.js';
import { signedWebhookHeaders } from '../../webhooks/webhook-signature.js';
import { WEBHOOK_SIGNER, type WebhookSigner } from '../../webhooks/webhook-signer.port.js';
import type { ConversionJob } from '../conversion-job.entity.js';
import { ConversionJobsRepository } from '../conversion-jobs.repository.js';

/** True when the job ended, the only time it has an event. */
const hasEnded = (job: ConversionJob): job is ConversionJob & { status: 'done' | 'failed' } => job.status === 'done' || job.status === 'failed';

/** The most of a receiver's answer read (and thrown away): a receiver answers an event briefly. */
const MAX_ANSWER_BYTES = 64 * 1024;

/**
 * One attempt to deliver a job's event: signed with the service's did:web key, POSTed through the outbound guard
 * (no redirect followed), and the answer written to the job's webhook. A retryable failure throws, so BullMQ tries
 * again after its backoff, until the attempts run out (docs/webhooks.md).
 */
@Injectable()
export class DeliverWebhookJob {
  private readonly logger = new Logger(DeliverWebhookJob.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly jobs: ConversionJobsRepository,
    private readonly deliveries: WebhookDeliveries,
    @Inject(WEBHOOK_SIGNER) private readonly signer: WebhookSigner,
  ) {}

  @OnJob(JobName.DeliverWebhook)
  async handle({ jobId }: JobPayloads[JobName.DeliverWebhook]): Promise<{ state: WebhookDeliveryState | 'nothing_to_deliver' }> {
    // A removed job took its webhook with it; one not ended has no event yet.
    const job = await this.jobs.find(jobId);
    if (!job || !hasEnded(job)) return { state: 'nothing_to_deliver' };
    const delivery = await this.deliveries.beginAttempt(jobId);
    if (!delivery) return { state: 'nothing_to_deliver' };
    const { maxAttempts, timeoutMs } = this.config.outbound.webhooks;
    if (delivery.attempts > maxAttempts) {
      // Only after a crash in its last attempt: the row counted it, the queue ran it again.
      await this.deliveries.endAttempt(jobId, { state: 'failed', statusCode: delivery.lastStatusCode, error: delivery.lastError });
      return { state: 'failed' };
    }

    const event = webhookEventOf(job, delivery.serviceUrl);
    const body = JSON.stringify(event);
    const headers = signedWebhookHeaders({
      id: event.id,
      timestampSeconds: Math.floor(Date.now() / 1000),
      body,
      keyId: this.signer.keyIdFor(delivery.serviceUrl),
      sign: (bytes) => this.signer.signBytes(bytes),
    });
    const answer = await this.post(delivery.url, body, headers, timeoutMs);
    const { verdict, statusCode, error } = deliveryVerdict(answer);
    const state = verdict === 'retry' ? (delivery.attempts >= maxAttempts ? 'failed' : 'pending') : verdict;
    await this.deliveries.endAttempt(jobId, { state, statusCode, error });

    if (state === 'pending') {
      this.logger.log(`webhook of job ${jobId}: attempt ${delivery.attempts} of ${maxAttempts} not delivered (${error}); retried later`);
      throw new Error(`webhook not delivered: ${error}`);
    }
    if (state === 'failed') {
      this.logger.warn(`webhook of job ${jobId}: given up after attempt ${delivery.attempts}: ${error}`);
      throw new UnrecoverableError(`webhook not delivered: ${error}`);
    }
    return { state };
  }

  private async post(url: string, body: string, headers: Record<string, string>, timeoutMs: number): Promise<DeliveryAnswer> {
    try {
      const response = await guardedFetch(url, {
        policy: this.config.outbound.policy,
        method: 'POST',
        body,
        headers,
        maxBytes: MAX_ANSWER_BYTES,
        timeoutMs,
        idleTimeoutMs: timeoutMs,
        maxRedirects: 0,
        acceptStatus: () => true,
      });
      return { status: response.status };
    } catch (error) {
      if (error instanceof OutboundError) return { error };
      throw error;
    }
  }
}
