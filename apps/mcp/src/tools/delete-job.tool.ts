import { ApiError, createClient } from '@fileshift/sdk';
import { z } from 'zod';
import { describeError } from './describe-error.js';
import type { ToolDeps } from './tool-deps.js';
import { toolError, toolResult } from './tool-result.js';

export function registerDeleteJob({ server, context }: ToolDeps): void {
  server.registerTool(
    'delete_job',
    {
      title: 'Delete a conversion job',
      description:
        'Deletes a job and its files on the service now (they would expire after 24 hours anyway). Its result can no longer be bought or downloaded. ' +
        'Calling it again for the same job is not an error (already_gone is then true). Free.',
      inputSchema: { job_id: z.string().min(1) },
      outputSchema: {
        job_id: z.string(),
        deleted: z.boolean().describe('True: the job and its files are gone (now, or before this call).'),
        already_gone: z.boolean().describe('True when an earlier call (or expiry) had removed it already.'),
        message: z.string(),
      },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
    },
    async ({ job_id: jobId }) => {
      try {
        const deleted = await createClient({ baseUrl: context.config.serviceUrl }).deleteJob(jobId);
        return toolResult({ job_id: jobId, deleted: deleted.success, already_gone: false, message: deleted.message }, `Job ${jobId}: ${deleted.message}`);
      } catch (error) {
        // Idempotent as annotated: a repeated delete finds the job gone (410: deleted or expired), which is what the caller wants.
        if (error instanceof ApiError && error.status === 410) {
          const message = `Nothing to delete: ${error.message}`;
          return toolResult({ job_id: jobId, deleted: true, already_gone: true, message }, `Job ${jobId}: ${message}`);
        }
        return toolError(describeError(error, context));
      }
    },
  );
}
