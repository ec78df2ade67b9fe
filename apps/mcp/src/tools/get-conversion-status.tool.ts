import { setTimeout as sleep } from 'node:timers/promises';
import { type Clock, createClient } from '@fileshift/sdk';
import { z } from 'zod';
import { describeError } from './describe-error.js';
import type { ToolDeps } from './tool-deps.js';
import { MAX_STATUS_WAIT_SECONDS, statusWithin } from './status-wait.js';
import { toolError, toolResult } from './tool-result.js';

const clock: Clock = { now: () => Date.now(), sleep: (ms, signal) => sleep(ms, undefined, { signal }) };

export function registerGetConversionStatus({ server, context }: ToolDeps): void {
  server.registerTool(
    'get_conversion_status',
    {
      title: 'Get a conversion status',
      description:
        'The state of a conversion job: queued, processing (with progress), done (with the result price) or failed (with the reason). ' +
        `Free. With wait_seconds (at most ${MAX_STATUS_WAIT_SECONDS}) it answers as soon as the job ends, or with the state when the wait runs out.`,
      inputSchema: {
        job_id: z.string().min(1).describe('The job id from convert_file.'),
        wait_seconds: z
          .number()
          .int()
          .min(0)
          .max(MAX_STATUS_WAIT_SECONDS)
          .default(0)
          .describe('Wait up to this long for the job to end (done or failed) before answering; 0 answers at once.'),
      },
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
    async ({ job_id: jobId, wait_seconds: waitSeconds }, extra) => {
      try {
        const client = createClient({ baseUrl: context.config.serviceUrl });
        const job = await statusWithin((id, signal, wait) => client.getJob(id, signal, wait), jobId, waitSeconds, { clock, signal: extra.signal });
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
