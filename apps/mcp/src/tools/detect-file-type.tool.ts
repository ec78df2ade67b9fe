import { z } from 'zod';
import { fileInputShape, loadFileForDetection } from '../file-input.js';
import { formatAmount } from '../usdc-amount.js';
import { describeError } from './describe-error.js';
import type { ToolDeps } from './tool-deps.js';
import { toolError, toolResult } from './tool-result.js';

export function registerDetectFileType({ server, context, fileSources, payingClient, canAskUser }: ToolDeps): void {
  server.registerTool(
    'detect_file_type',
    {
      title: 'Detect a file type',
      description:
        'Finds out what a file really is from its first 200 bytes, size and name (the extension may be wrong or missing), ' +
        "and what it can be converted to. Costs a small fixed fee in USDC, paid from the agent wallet (the service's current prices are in wallet_status). " +
        'Reads only the first 200 bytes of a local file, so any size can be detected. Give exactly one of a local path, an https url, or content_base64 with filename.',
      inputSchema: fileInputShape,
      outputSchema: {
        detected: z.boolean(),
        format: z.string().nullable().describe('Format id, e.g. png.'),
        description: z.string().nullable(),
        confidence: z.number().nullable(),
        compatibility: z
          .object({ status: z.enum(['yes', 'likely', 'maybe', 'no', 'unknown']), reason: z.string() })
          .describe('Whether convert_file can take it, and why; names the other formats the first bytes fit as well when they cannot tell (the file name decides).'),
        suggested_filename: z.string().nullable(),
        convertible_to: z.array(z.string()),
        paid_usdc: z.string().nullable().describe('What this call paid; null when no settled payment came back.'),
        transaction: z.string().nullable(),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    },
    async (input) => {
      try {
        // Only the first 200 bytes and the size are sent: a file of any size can be detected.
        const file = await loadFileForDetection(input, fileSources);
        const { client, payments } = await payingClient();
        const detected = await client.detectFile(file);
        const paid = payments.paidFor(detected.receipt);
        const format = detected.detected_format;
        const result = {
          detected: detected.detected,
          format: format?.format ?? null,
          description: format?.description ?? null,
          confidence: format?.confidence ?? null,
          compatibility: { status: detected.convert_file_compatibility.status, reason: detected.convert_file_compatibility.reason },
          suggested_filename: detected.suggested_filename ?? null,
          convertible_to: detected.convertible_to,
          paid_usdc: paid === null ? null : formatAmount(paid),
          transaction: paid === null ? null : (detected.receipt?.transaction ?? null),
        };
        const text = format
          ? `${file.filename} is ${format.description} (${format.format}, confidence ${format.confidence}). ` +
            `${detected.convert_file_compatibility.reason} ` +
            `It can be converted to: ${detected.convertible_to.join(', ') || 'nothing on this service'}.`
          : `The type of ${file.filename} could not be detected.`;
        const payment = result.paid_usdc ? `Paid ${result.paid_usdc} USDC (tx ${result.transaction}).` : 'No settled payment came back (wallet_status shows what was spent).';
        return toolResult(result, `${text} ${payment}`);
      } catch (error) {
        return toolError(describeError(error, context, { canAskUser: canAskUser() }));
      }
    },
  );
}
