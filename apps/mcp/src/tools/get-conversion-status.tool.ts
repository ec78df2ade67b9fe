import { createClient } from '@fileshift/sdk';
import { z } from 'zod';
import { describeError } from './describe-error.js';
import type { ToolDeps } from './tool-deps.js';
import { toolError, toolResult } from './tool-result.js';

export function registerGetConversionStatus({ server, context }: ToolDeps): void {
  server.registerTool(
    'get_conversion_status',
    {
      title: 'Get a conversion status',
      description: 'The state of a conversion job: queued, processing (with progress), done (with the result price) or failed (with the reason). Free.',
      inputSchema: { job_id: z.string().min(1).describe('The job id from convert_file.') },
      outputSchema: {
        job_id: z.string(),
        status: z.enum(['queued', 'processing', 'done', 'failed']),
        progress_percent: z.number().nullable(),
        result_price_usdc: z.string().nullable(),
        failure_type: z.string().nullable(),
        retry_after_seconds: z.number().nullable(),
      },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    },
    async ({ job_id: jobId }) => {
      try {
        const job = await createClient({ baseUrl: context.config.serviceUrl }).getJob(jobId);
        const result = {
          job_id: job.job_id,
          status: job.status,
          progress_percent: job.status === 'queued' || job.status === 'processing' ? (job.progress_percent ?? null) : job.status === 'done' ? 100 : null,
          result_price_usdc: job.status === 'done' ? job.price_for_result.amount : null,
          failure_type: job.status === 'failed' ? job.failure_type : null,
          retry_after_seconds: job.status === 'queued' || job.status === 'processing' ? job.retryAfterSeconds : null,
        };
        const text =
          job.status === 'done'
            ? `Job ${jobId} is done; buy the result with purchase_result for ${result.result_price_usdc} USDC.`
            : job.status === 'failed'
              ? `Job ${jobId} failed (${job.failure_type}): ${job.message ?? ''} Nothing more will be charged.`
              : `Job ${jobId} is ${job.status}${result.progress_percent !== null ? ` (${result.progress_percent} %)` : ''}; check again in ${result.retry_after_seconds} s.`;
        return toolResult(result, text);
      } catch (error) {
        return toolError(describeError(error, context));
      }
    },
  );
}
