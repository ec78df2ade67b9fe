import type { EngineClass } from '@fileshift/converters';

/**
 * The typed job contract: every queue and job name in one place, and the payload type of each
 * job. A worker refuses to start when a job name here has no handler.
 */
export enum QueueName {
  Maintenance = 'maintenance',
  /** Conversions wait in the queue of their plan's engine class: a slow document never holds up an image. */
  Documents = 'conversion-documents',
  Media = 'conversion-media',
  Images = 'conversion-images',
  /** The events announcing a job's end to its webhook_url, each retried with backoff (docs/webhooks.md). */
  Webhooks = 'webhooks',
}

export enum JobName {
  PurgeExpired = 'maintenance.purge-expired',
  ConvertDocument = 'conversion.convert-document',
  ConvertMedia = 'conversion.convert-media',
  ConvertImage = 'conversion.convert-image',
  DeliverWebhook = 'webhooks.deliver',
}

export interface JobPayloads {
  [JobName.PurgeExpired]: { reason: 'schedule' | 'startup' | 'manual' };
  [JobName.ConvertDocument]: { jobId: string };
  [JobName.ConvertMedia]: { jobId: string };
  [JobName.ConvertImage]: { jobId: string };
  /** The conversion job whose end is announced. */
  [JobName.DeliverWebhook]: { jobId: string };
}

/**
 * What every queued job carries: the deployment it belongs to (the id of its database) and its payload.
 * Two deployments sharing a Redis prefix then never run each other's jobs.
 */
export interface JobEnvelope<N extends JobName = JobName> {
  deploymentId: string;
  payload: JobPayloads[N];
}

export const QUEUE_OF_JOB: Readonly<Record<JobName, QueueName>> = {
  [JobName.PurgeExpired]: QueueName.Maintenance,
  [JobName.ConvertDocument]: QueueName.Documents,
  [JobName.ConvertMedia]: QueueName.Media,
  [JobName.ConvertImage]: QueueName.Images,
  [JobName.DeliverWebhook]: QueueName.Webhooks,
};

/** The conversion job of each engine class (one handler serves them all). */
export const CONVERSION_JOB_OF_CLASS: Readonly<Record<EngineClass, JobName.ConvertDocument | JobName.ConvertMedia | JobName.ConvertImage>> = {
  documents: JobName.ConvertDocument,
  media: JobName.ConvertMedia,
  images: JobName.ConvertImage,
};

export const CONVERSION_JOBS = Object.values(CONVERSION_JOB_OF_CLASS);
export const ALL_QUEUES: readonly QueueName[] = Object.values(QueueName);
export const ALL_JOBS: readonly JobName[] = Object.values(JobName);
