import { z } from 'zod';
import { deliveredResultShape, deliverResult, MAX_EMBEDDED_BYTES } from './deliver-result.js';
import { describeError } from './describe-error.js';
import type { ToolDeps } from './tool-deps.js';
import { toolError, toolResult } from './tool-result.js';

export function registerPurchaseResult({ server, context, results, payingClient, canAskUser }: ToolDeps): void {
  server.registerTool(
    'purchase_result',
    {
      title: 'Buy and download a conversion result',
      description:
        'Pays for the result of a done conversion job (priced by the upload size: see get_conversion_status for this job, or wallet_status ' +
        'for the price list; within the wallet limits), saves it to the output directory and returns it as an MCP resource (a resource_link; ' +
        'images and audio up to 1 MB also inline) with the payment receipt. Buying again is free. Set embed to also inline other files up to 1 MB.',
      inputSchema: {
        job_id: z.string().min(1),
        embed: z.boolean().default(false).describe(`Also embed files that are not images or audio when they have at most ${MAX_EMBEDDED_BYTES} bytes.`),
      },
      outputSchema: deliveredResultShape,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    },
    async ({ job_id: jobId, embed }) => {
      try {
        const { result, content, text } = await deliverResult(await payingClient(), jobId, { context, results, embed });
        return toolResult(result, text, content);
      } catch (error) {
        return toolError(describeError(error, context, { canAskUser: canAskUser() }));
      }
    },
  );
}
