import type { PriceConfig } from '../config/app-config.js';
import { resultPrice, ZERO_PRICE } from '../payments/pricing.js';
import type { ConversionJob } from '../conversion-jobs/conversion-job.entity.js';
import type { WebhookDelivery } from '../webhooks/webhook-delivery.entity.js';
import type { JobStatusBody, JobWebhook } from './job-status.schemas.js';

/** Poll sooner when a job is about to finish. */
export function retryAfterSeconds(job: Pick<ConversionJob, 'status' | 'progressPercent'>): number {
  if (job.status === 'queued') return 2;
  return job.progressPercent >= 50 ? 1 : 2;
}

/** Pure: the spec's status shape of a job, with its webhook's delivery when it has one. */
export function jobStatusView(job: ConversionJob, args: { baseUrl: string; prices: PriceConfig; network?: string; webhook?: WebhookDelivery | null }): JobStatusBody {
  const view = statusOf(job, args);
  return args.webhook ? { ...view, webhook: webhookView(args.webhook) } : view;
}

/** Pure: a webhook's delivery as the status shows it. */
export function webhookView(delivery: WebhookDelivery): JobWebhook {
  return {
    url: delivery.url,
    state: delivery.state,
    attempts: delivery.attempts,
    ...(delivery.lastAttemptAt ? { last_attempt_at: delivery.lastAttemptAt.toISOString() } : {}),
    ...(delivery.lastStatusCode !== null ? { last_status_code: delivery.lastStatusCode } : {}),
    ...(delivery.lastError !== null ? { last_error: delivery.lastError } : {}),
  };
}

function statusOf(job: ConversionJob, args: { baseUrl: string; prices: PriceConfig; network?: string }): JobStatusBody {
  if (job.status === 'done') {
    return {
      job_id: job.id,
      status: 'done',
      input_file_size_bytes: job.inputSizeBytes,
      result_available: true,
      result_requires_payment: true,
      price_for_result: resultPrice(job.inputSizeBytes, args.prices, args.network),
      result_url: `${args.baseUrl}/api/x402/v1/convert-file/${job.id}/result`,
      detected_input_format: job.detectedInputFormat,
      target_format: job.targetFormat,
      price_expires_at: job.expiresAt.toISOString(),
      result_expires_at: job.expiresAt.toISOString(),
      ...(job.resultManifest?.notes ? { notes: job.resultManifest.notes } : {}),
      ...(job.joinPlan ? { input_files: job.joinPlan.members.length } : {}),
    };
  }
  if (job.status === 'failed') {
    return {
      job_id: job.id,
      status: 'failed',
      failure_type: job.failureType ?? 'unknown',
      result_available: false,
      charged_amount: ZERO_PRICE,
      message: job.failureMessage ?? 'The conversion failed.',
    };
  }
  return {
    job_id: job.id,
    status: job.status === 'processing' ? 'processing' : 'queued',
    result_available: false,
    retry_after_seconds: retryAfterSeconds(job),
    progress_percent: Math.min(99, job.progressPercent),
    message: job.status === 'queued' ? 'Waiting for a worker.' : `Converting ${job.detectedInputFormat} to ${job.targetFormat}.`,
  };
}
