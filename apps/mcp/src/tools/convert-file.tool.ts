import { z } from 'zod';
import { fileInputShape, loadFileInput } from '../file-input.js';
import { fixedPrice, resultPriceFor } from '../fileshift-context.js';
import { describeError } from './describe-error.js';
import type { ToolDeps } from './tool-deps.js';
import { toolError, toolResult } from './tool-result.js';

export function registerConvertFile({ server, context, allowLocalPaths, client }: ToolDeps): void {
  server.registerTool(
    'convert_file',
    {
      title: 'Start a conversion',
      description:
        'Uploads a file and starts converting it to target_format (e.g. "webp", "mp3"); pays the 0.002 USDC job fee. Returns the job id ' +
        'and the price the result will cost; then poll get_conversion_status and buy it with purchase_result. ' +
        'Pass the same idempotency_key when retrying so the fee is not paid twice.',
      inputSchema: {
        ...fileInputShape,
        target_format: z.string().min(1).max(20).describe('Output format without a dot, e.g. webp.'),
        idempotency_key: z.string().min(8).max(128).optional().describe('Reuse on retries: the same key and file start the job once.'),
      },
      outputSchema: {
        job_id: z.string(),
        status: z.string(),
        fee_paid_usdc: z.string().nullable().describe('Null when an earlier call with the same idempotency key already paid.'),
        transaction: z.string().nullable(),
        expected_result_price_usdc: z.string().nullable(),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    },
    async (input) => {
      try {
        const file = await loadFileInput(input, { allowLocalPaths });
        const started = await (await client()).startConversion({ data: file.bytes, filename: file.filename, createdAt: file.createdAt }, input.target_format, input.idempotency_key);
        const facts = await context.serviceFacts();
        const result = {
          job_id: started.job_id,
          status: started.status,
          fee_paid_usdc: started.receipt ? fixedPrice(facts, 'createConversionJob') : null,
          transaction: started.receipt?.transaction ?? null,
          expected_result_price_usdc: resultPriceFor(facts, file.bytes.length),
        };
        return toolResult(
          result,
          `Started job ${result.job_id} (${file.filename} → ${input.target_format}). ` +
            `${result.fee_paid_usdc ? `Paid the ${result.fee_paid_usdc} USDC job fee (tx ${result.transaction}).` : 'No new fee: this idempotency key already started the job.'} ` +
            `The result will cost ${result.expected_result_price_usdc} USDC. Poll get_conversion_status in ${started.retry_after_seconds} s.`,
        );
      } catch (error) {
        return toolError(await describeError(error, context));
      }
    },
  );
}
