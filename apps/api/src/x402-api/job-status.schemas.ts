import { FAILURE_TYPES } from '@fileshift/converters';
import { z } from 'zod';
import { apiSchema } from '../http-kit/api-schema-registry.js';
import { PriceSchema, ResultPriceSchema } from '../payments/price.schemas.js';

export const JobWebhookSchema = apiSchema(
  'JobWebhook',
  z.object({
    url: z.string(),
    state: z.enum(['pending', 'delivering', 'delivered', 'failed', 'disabled']),
    attempts: z.number().int().min(0),
    last_attempt_at: z.string().optional(),
    last_status_code: z.number().int().optional(),
    last_error: z.string().optional(),
  }),
  "The job's webhook_url and how the delivery of its end's event went (docs/webhooks.md): pending until the job ends and between attempts; " +
    'delivered on a 2xx; disabled by a 410; failed when the attempts ran out or the answer ruled out another one.',
);

export const JobProcessingSchema = apiSchema(
  'JobStatusProcessing',
  z.object({
    job_id: z.string(),
    status: z.enum(['queued', 'processing']),
    result_available: z.literal(false),
    retry_after_seconds: z.number().int().min(1),
    progress_percent: z.number().int().min(0).max(99).optional(),
    message: z.string().optional(),
    webhook: JobWebhookSchema.optional(),
  }),
);

export const JobDoneSchema = apiSchema(
  'JobStatusDone',
  z.object({
    job_id: z.string(),
    status: z.literal('done'),
    input_file_size_bytes: z.number().int().min(1).max(41_943_040),
    result_available: z.literal(true),
    result_requires_payment: z.literal(true),
    price_for_result: ResultPriceSchema,
    result_url: z.string().url(),
    detected_input_format: z.string().optional(),
    target_format: z.string().optional(),
    price_expires_at: z.string().optional(),
    result_expires_at: z.string().optional(),
    notes: z.array(z.string()).optional().describe('What the conversion did that you should know, e.g. the metadata strip_metadata removed ("removed 12 EXIF tags, 7 GPS tags").'),
    input_files: z.number().int().min(2).optional().describe('A job of several files: how many were joined.'),
    webhook: JobWebhookSchema.optional(),
  }),
);

export const JobFailedSchema = apiSchema(
  'JobStatusFailed',
  z.object({
    job_id: z.string(),
    status: z.literal('failed'),
    failure_type: z.enum(FAILURE_TYPES),
    result_available: z.literal(false),
    charged_amount: PriceSchema.optional(),
    message: z.string().optional(),
    webhook: JobWebhookSchema.optional(),
  }),
);

export const JobStatusSchema = apiSchema('JobStatus', z.union([JobProcessingSchema, JobDoneSchema, JobFailedSchema]), 'One of the three status shapes.');

export type JobStatusBody = z.infer<typeof JobStatusSchema>;

export type JobWebhook = z.infer<typeof JobWebhookSchema>;
