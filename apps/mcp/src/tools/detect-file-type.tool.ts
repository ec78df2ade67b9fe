import { z } from 'zod';
import { fileInputShape, loadFileInput } from '../file-input.js';
import { fixedPrice } from '../fileshift-context.js';
import { describeError } from './describe-error.js';
import type { ToolDeps } from './tool-deps.js';
import { toolError, toolResult } from './tool-result.js';

export function registerDetectFileType({ server, context, allowLocalPaths, client }: ToolDeps): void {
  server.registerTool(
    'detect_file_type',
    {
      title: 'Detect a file type',
      description:
        'Finds out what a file really is from its first 200 bytes, size and name (the extension may be wrong or missing), ' +
        'and what it can be converted to. Costs 0.002 USDC, paid from the agent wallet. Give a local path, or content_base64 with filename.',
      inputSchema: fileInputShape,
      outputSchema: {
        detected: z.boolean(),
        format: z.string().nullable().describe('Format id, e.g. png.'),
        description: z.string().nullable(),
        confidence: z.number().nullable(),
        suggested_filename: z.string().nullable(),
        convertible_to: z.array(z.string()),
        paid_usdc: z.string().nullable(),
        transaction: z.string().nullable(),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    },
    async (input) => {
      try {
        const file = await loadFileInput(input, { allowLocalPaths });
        const detected = await (await client()).detectFile({ data: file.bytes, filename: file.filename, createdAt: file.createdAt });
        const format = detected.detected_format;
        const result = {
          detected: detected.detected,
          format: format?.format ?? null,
          description: format?.description ?? null,
          confidence: format?.confidence ?? null,
          suggested_filename: detected.suggested_filename ?? null,
          convertible_to: detected.convertible_to,
          paid_usdc: detected.receipt ? fixedPrice(await context.serviceFacts(), 'detectFileType') : null,
          transaction: detected.receipt?.transaction ?? null,
        };
        const text = format
          ? `${file.filename} is ${format.description} (${format.format}, confidence ${format.confidence}). ` +
            `It can be converted to: ${detected.convertible_to.join(', ') || 'nothing on this service'}.`
          : `The type of ${file.filename} could not be detected.`;
        return toolResult(result, `${text} Paid ${result.paid_usdc} USDC (tx ${result.transaction}).`);
      } catch (error) {
        return toolError(await describeError(error, context));
      }
    },
  );
}
