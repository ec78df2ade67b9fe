import { Injectable } from '@nestjs/common';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { ConversionJobs } from '../conversion-jobs/conversion-jobs.service.js';
import { validated } from '../errors/request-validation.error.js';
import { DeleteJobResponseSchema } from '../x402-api/convert-file.schemas.js';
import { JobLookup } from '../x402-api/job-lookup.service.js';
import type { McpTool } from './mcp-tool.js';
import { toolResult } from './tool-results.js';

/** DELETE /api/x402/v1/convert-file/{job_id}/delete as a tool. */
@Injectable()
export class DeleteJobTool implements McpTool {
  readonly name = 'delete_job';
  readonly title = 'Delete a job';
  readonly description = 'Delete a job, its input and its result now (free; the job id is the access key). A running conversion is stopped; later calls for the job answer 410.';
  readonly paid = false;
  readonly annotations = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false };
  readonly inputSchema = z.object({ job_id: z.string().describe('The job id convert_file answered.') });
  readonly outputSchema = DeleteJobResponseSchema;

  constructor(
    private readonly jobs: ConversionJobs,
    private readonly lookup: JobLookup,
  ) {}

  async run(args: Record<string, unknown>): Promise<CallToolResult> {
    const { job_id: jobId } = validated(this.inputSchema, args);
    await this.jobs.remove(await this.lookup.live(jobId), 'deleted');
    const answer = { success: true, message: 'The job, its uploaded file and its result were deleted.' };
    return toolResult(answer, { text: answer.message });
  }
}
