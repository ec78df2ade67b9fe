import { randomUUID } from 'node:crypto';
import { conversionPlan, pricesOf, resultPriceFor } from '@fileshift/sdk';
import { z } from 'zod';
import { describeFiles, fileInputShape, joinInputShape, loadFileInput } from '../file-input.js';
import { formatAmount } from '../usdc-amount.js';
import { conversionOptionsShape } from './conversion-options.js';
import { describeError } from './describe-error.js';
import { OPERATION_EXAMPLES_TEXT } from './operation-examples.js';
import type { ToolDeps } from './tool-deps.js';
import { checkedTargetFormat } from './target-format-check.js';
import { toolError, toolResult } from './tool-result.js';
import { signedReceiptShape } from './deliver-result.js';
import { describePaidOn, paidOn, paidOnShape } from './paid-on.js';

export function registerConvertFile({ server, context, fileSources, payingClient, canAskUser }: ToolDeps): void {
  server.registerTool(
    'convert_file',
    {
      title: 'Start a conversion',
      description:
        'Uploads a file (exactly one of a local path or content_base64), or names its http(s) url for the Fileshift service to fetch itself (public hosts only; ' +
          'nothing is charged when it cannot), or several local files (paths) to join into one, and starts converting it to target_format (e.g. "webp", "mp3"); ' +
          'pays the job fee from the agent wallet, ' +
        'only when the job fee and the result price together fit its limits (asked for approval once, for both) ' +
        "(the service's current prices are in wallet_status). Returns the job id, the fee paid, the price the result will cost and the " +
        'idempotency_key used; then poll get_conversion_status and buy the result with purchase_result. ' +
        'When retrying a call whose answer was lost, pass the returned (or your own) idempotency_key so the fee is not paid twice. ' +
        'With webhook_url the service also POSTs a signed event there when the job ends.\n' +
        OPERATION_EXAMPLES_TEXT,
      inputSchema: {
        ...fileInputShape,
        ...joinInputShape,
        target_format: z.string().min(1).max(20).describe('Output format without a dot, e.g. webp.'),
        ...conversionOptionsShape,
        idempotency_key: z.string().min(8).max(128).optional().describe('Reuse on retries: the same key and file start the job once. Generated when absent.'),
        webhook_url: z
          .string()
          .min(1)
          .max(2048)
          .optional()
          .describe('Optional: an http(s) URL on a public host the service POSTs a signed event to when the job ends (done or failed); the SDK\'s verifyWebhook checks it.'),
      },
      outputSchema: {
        job_id: z.string(),
        status: z.string(),
        idempotency_key: z.string().describe('Pass it again to retry this call without paying the fee twice.'),
        fee_paid_usdc: z.string().nullable().describe('What this call paid; null when an earlier call with the same idempotency key already paid.'),
        transaction: z.string().nullable(),
        paid_on: paidOnShape,
        signed_receipt: signedReceiptShape,
        expected_result_price_usdc: z
          .string()
          .nullable()
          .describe("The service's declared price for this result; for a file by url, whose size is known once the service has fetched it, the highest price: the result costs up to this."),
      },
      // Not idempotent: without a key every call starts (and pays for) a new job.
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    },
    async (input) => {
      try {
        const target = checkedTargetFormat(input.target_format);
        if (!target.ok) return toolError(target.message);
        const file = await loadFileInput(input, fileSources);
        const idempotencyKey = input.idempotency_key ?? `mcp-${randomUUID()}`;
        // The job fee is paid only when the result can be bought too: both checked, and approved, as one.
        const prices = pricesOf(await context.serviceFacts());
        // A file by URL has no size yet: the plan, and the price announced, count the highest result price.
        const plan = conversionPlan(prices, { filename: file.filename, sizeBytes: file.sizeBytes, targetFormat: input.target_format, fileCount: file.fileCount });
        const { client, payments } = await payingClient(plan);
        const started = await client.startConversion(file.input, { format: target.format, options: input.options }, idempotencyKey, undefined, undefined, input.webhook_url);
        const paid = payments.paidFor(started.receipt);
        const expected = resultPriceFor(prices, file.sizeBytes ?? Number.POSITIVE_INFINITY);
        const result = {
          job_id: started.job_id,
          status: started.status,
          idempotency_key: idempotencyKey,
          fee_paid_usdc: paid === null ? null : formatAmount(paid.amount),
          transaction: paid?.transaction ?? null,
          paid_on: await paidOn(paid, context),
          signed_receipt: paid === null ? null : (started.receipt?.signed?.jws ?? null),
          expected_result_price_usdc: expected === null ? null : formatAmount(expected),
        };
        return toolResult(
          result,
          `Started job ${result.job_id} (${describeFiles(file)} → ${input.target_format}, idempotency key ${idempotencyKey}). ` +
            `${result.paid_on ? `Paid the ${result.fee_paid_usdc} USDC job fee ${describePaidOn(result.paid_on)}.` : 'No new fee: this idempotency key already started the job.'} ` +
            `${result.expected_result_price_usdc ? `The result will cost ${file.sizeBytes === undefined ? 'up to ' : ''}${result.expected_result_price_usdc} USDC. ` : ''}` +
            `${input.webhook_url ? 'The service will POST a signed event to the webhook_url when the job ends. ' : ''}Poll get_conversion_status in ${started.retry_after_seconds} s.`,
        );
      } catch (error) {
        return toolError(describeError(error, context, { canAskUser: canAskUser() }));
      }
    },
  );
}
