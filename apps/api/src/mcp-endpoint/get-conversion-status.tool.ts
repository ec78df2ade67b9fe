import { Inject, Injectable } from '@nestjs/common';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/app-config.token.js';
import { ConversionJobs } from '../conversion-jobs/conversion-jobs.service.js';
import { RateLimitError, RateLimitErrorCode } from '../rate-limit/rate-limit.error.js';
import { JobLookup } from '../x402-api/job-lookup.service.js';
import { jobStatusView, retryAfterSeconds } from '../x402-api/job-status-view.js';
import { MAX_STATUS_WAIT_SECONDS } from '../x402-api/status-wait.js';
import { validated } from '../errors/request-validation.error.js';
import type { McpTool, ToolCall } from './mcp-tool.js';
import { toolResult } from './tool-results.js';

/** GET /api/x402/v1/convert-file/{job_id}/status as a tool, with its wait (the same bound and the same waiting limit). */
@Injectable()
export class GetConversionStatusTool implements McpTool {
  readonly name = 'get_conversion_status';
  readonly title = 'Get a conversion status';
  readonly description =
    'The state of a conversion job (free; the job id is the access key): queued or processing with progress, done with the price ' +
    `of its result, or failed with the reason. With wait_seconds (at most ${MAX_STATUS_WAIT_SECONDS}) it answers as soon as the job ends.`;
  readonly paid = false;
  readonly annotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
  readonly inputSchema = z.object({
    job_id: z.string().describe('The job id convert_file answered.'),
    wait_seconds: z.number().int().min(0).max(MAX_STATUS_WAIT_SECONDS).default(0).describe('Wait up to this long for the job to end; 0 answers at once.'),
  });
  readonly outputSchema = z.looseObject({
    job_id: z.string(),
    status: z.enum(['queued', 'processing', 'done', 'failed']),
    result_url: z.string().optional().describe('Once done: the result, bought with purchase_result.'),
  });

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly jobs: ConversionJobs,
    private readonly lookup: JobLookup,
  ) {}

  async run(args: Record<string, unknown>, call: ToolCall): Promise<CallToolResult> {
    const { job_id: jobId, wait_seconds: waitSeconds } = validated(this.inputSchema, args);
    let job = await this.lookup.live(jobId);
    if (waitSeconds > 0 && (job.status === 'queued' || job.status === 'processing')) {
      if (this.jobs.waiting >= this.config.x402StatusMaxWaiting) {
        const retryAfter = retryAfterSeconds(job);
        throw new RateLimitError(RateLimitErrorCode.TooManyRequests, `Too many requests wait for their jobs on this server; ask without wait_seconds, or retry after ${retryAfter} s.`, undefined, retryAfter);
      }
      // Removed while it was waited for: the lookup answers 410 as it would have.
      job = (await this.jobs.waitForEnd(job, waitSeconds * 1000, call.signal)) ?? (await this.lookup.live(jobId));
    }
    const view = jobStatusView(job, { baseUrl: call.baseUrl, prices: this.config.prices, webhook: await this.jobs.webhookOf(job.id) });
    const text =
      view.status === 'done'
        ? `Job ${jobId} is done; buy its result with purchase_result (${view.price_for_result.amount} ${view.price_for_result.currency}).`
        : view.status === 'failed'
          ? `Job ${jobId} failed (${view.failure_type}); nothing more is charged.`
          : `Job ${jobId} is ${view.status}; ask again in ${view.retry_after_seconds} s, or with wait_seconds.`;
    return toolResult(view as unknown as Record<string, unknown>, { text });
  }
}
