import { z } from 'zod';
import { deliveredResultShape, deliverResult, describeDelivery, MAX_EMBEDDED_BYTES } from './deliver-result.js';
import { describeError } from './describe-error.js';
import type { ToolDeps } from './tool-deps.js';
import { toolError, toolResult } from './tool-result.js';

export function registerPurchaseResult({ server, context, payingClient, canAskUser }: ToolDeps): void {
  server.registerTool(
    'purchase_result',
    {
      title: 'Buy and download a conversion result',
      description:
        'Pays for the result of a done conversion job (priced by the upload size: see get_conversion_status for this job, or wallet_status ' +
        'for the price list; within the wallet limits), downloads it and saves it to the output directory, and returns the payment receipt. ' +
        'Buying again is free. Set embed to also return files up to 1 MB inline.',
      inputSchema: {
        job_id: z.string().min(1),
        embed: z.boolean().default(false).describe(`Also return the file inline when it has at most ${MAX_EMBEDDED_BYTES} bytes.`),
      },
      outputSchema: deliveredResultShape,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    },
    async ({ job_id: jobId, embed }) => {
      try {
        const { result, embedded } = await deliverResult(await payingClient(), jobId, context.config.outputDir, embed);
        return toolResult(result, describeDelivery(result), embedded);
      } catch (error) {
        return toolError(describeError(error, context, { canAskUser: canAskUser() }));
      }
    },
  );
}
