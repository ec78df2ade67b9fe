/** What an event tells of a job that ended (the core's ConversionJob has these fields). */
export interface EndedJob {
  id: string;
  origin: 'x402' | 'key_api';
  status: 'done' | 'failed';
  detectedInputFormat: string;
  targetFormat: string;
  failureType: string | null;
  failureMessage: string | null;
  finishedAt: Date | null;
  updatedAt: Date;
}

/** What the service POSTs to a job's webhook_url when the job ends (docs/webhooks.md). */
export interface WebhookEvent {
  /** The same in every attempt of the event, and its `webhook-id` header: a receiver that sees it twice handles it once. */
  id: string;
  type: 'conversion.done' | 'conversion.failed';
  /** When the job ended. */
  created_at: string;
  data: {
    job_id: string;
    status: 'done' | 'failed';
    api: EndedJob['origin'];
    detected_input_format: string;
    target_format: string;
    /** x402: the job's free status, which answers the rest (the price of the result…). */
    status_url?: string;
    /** x402, done: where the result is bought. */
    result_url?: string;
    failure_type?: string;
    message?: string;
  };
}

/**
 * Pure: the event of an ended job. Small and the same in every attempt: the job's facts, no secret and no download
 * URL; an x402 client asks the status and buys the result as it would after polling.
 */
export function webhookEventOf(job: EndedJob, serviceUrl: string): WebhookEvent {
  const jobUrl = `${serviceUrl}/api/x402/v1/convert-file/${job.id}`;
  const x402 = job.origin === 'x402';
  return {
    id: `evt_${job.id}_${job.status}`,
    type: job.status === 'done' ? 'conversion.done' : 'conversion.failed',
    created_at: (job.finishedAt ?? job.updatedAt).toISOString(),
    data: {
      job_id: job.id,
      status: job.status,
      api: job.origin,
      detected_input_format: job.detectedInputFormat,
      target_format: job.targetFormat,
      ...(x402 ? { status_url: `${jobUrl}/status` } : {}),
      ...(x402 && job.status === 'done' ? { result_url: `${jobUrl}/result` } : {}),
      ...(job.status === 'failed' ? { failure_type: job.failureType ?? 'unknown', message: job.failureMessage ?? 'The conversion failed.' } : {}),
    },
  };
}
