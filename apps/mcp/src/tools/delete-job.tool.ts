import { createClient } from '@fileshift/sdk';
import { z } from 'zod';
import { describeError } from './describe-error.js';
import type { ToolDeps } from './tool-deps.js';
import { toolError, toolResult } from './tool-result.js';

export function registerDeleteJob({ server, context }: ToolDeps): void {
  server.registerTool(
    'delete_job',
    {
      title: 'Delete a conversion job',
      description: 'Deletes a job and its files on the service now (they would expire after 24 hours anyway). Its result can no longer be bought or downloaded. Free.',
      inputSchema: { job_id: z.string().min(1) },
      outputSchema: { job_id: z.string(), deleted: z.boolean(), message: z.string() },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
    },
    async ({ job_id: jobId }) => {
      try {
        const deleted = await createClient({ baseUrl: context.config.serviceUrl }).deleteJob(jobId);
        return toolResult({ job_id: jobId, deleted: deleted.success, message: deleted.message }, `Job ${jobId}: ${deleted.message}`);
      } catch (error) {
        return toolError(describeError(error, context));
      }
    },
  );
}
