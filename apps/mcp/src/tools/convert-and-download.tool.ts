import { conversionPlan, JobFailedError, pricesOf, SpendLimitError } from '@fileshift/sdk';
import { z } from 'zod';
import { describeFiles, fileInputShape, joinInputShape, loadFileInput } from '../file-input.js';
import { formatAmount } from '../usdc-amount.js';
import { unaffordableConversion } from './conversion-affordability.js';
import { deliveredResultShape, deliverResult, MAX_EMBEDDED_BYTES, ResultNotSavedError } from './deliver-result.js';
import { conversionOptionsShape } from './conversion-options.js';
import { describeError } from './describe-error.js';
import { describeRefusal } from './describe-refusal.js';
import { OPERATION_EXAMPLES_TEXT } from './operation-examples.js';
import { describePaidOn, paidOn, paidOnShape, type PaidOn } from './paid-on.js';
import { ProgressNotifier } from './progress-notifier.js';
import type { ToolDeps } from './tool-deps.js';
import { checkedTargetFormat } from './target-format-check.js';
import { toolError, toolResult } from './tool-result.js';

/** A started job, for messages about failures after its fee was paid. */
interface StartedJob {
  jobId: string;
  fee: bigint | null;
  paidOn: PaidOn;
}

export function registerConvertAndDownload({ server, context, fileSources, results, payingClient, canAskUser }: ToolDeps): void {
  server.registerTool(
    'convert_and_download',
    {
      title: 'Convert a file and download the result',
      description:
        'The whole conversion in one call: uploads the file, pays the job fee, waits for the conversion (with progress ' +
        'notifications), pays for the result (priced by the upload size), saves it to the output directory and returns it as an MCP resource ' +
        '(a resource_link; images and audio up to 1 MB also inline). The file is exactly one of a local path, content_base64, or an http(s) url that the Fileshift ' +
        'service fetches itself (public hosts only; nothing is charged when it cannot; its result is planned at the highest price until its size is known), ' +
        'or several local files (paths) joined into one result. Everything is paid ' +
        "from the agent wallet within its limits; the service's current prices are in wallet_status. If the job fee plus the result " +
        'price would not fit the limits, nothing is started or paid.\n' +
        OPERATION_EXAMPLES_TEXT,
      inputSchema: {
        ...fileInputShape,
        ...joinInputShape,
        target_format: z.string().min(1).max(20).describe('Output format without a dot, e.g. webp, pdf, mp3.'),
        ...conversionOptionsShape,
        embed: z.boolean().default(false).describe(`Also embed files that are not images or audio when they have at most ${MAX_EMBEDDED_BYTES} bytes.`),
      },
      outputSchema: {
        ...deliveredResultShape,
        job_fee_usdc: z.string().nullable().describe('What this call paid for the job fee.'),
        job_fee_paid_on: paidOnShape.describe('Where the job fee was paid (paid_on is where the result was).'),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    },
    async (input, extra) => {
      let started: StartedJob | undefined;
      try {
        const target = checkedTargetFormat(input.target_format);
        if (!target.ok) return toolError(target.message);
        const file = await loadFileInput(input, fileSources);
        const prices = pricesOf(await context.serviceFacts());
        const refusal = unaffordableConversion(context.spending(), prices, file.sizeBytes, { threshold: context.config.approvalThreshold, canAskUser: canAskUser() });
        if (refusal) return toolError(refusal);
        const plan = conversionPlan(prices, { filename: file.filename, sizeBytes: file.sizeBytes, targetFormat: input.target_format, fileCount: file.fileCount });
        const paying = await payingClient(plan);
        const progress = new ProgressNotifier(extra);
        const job = await paying.client.startConversion(file.input, { format: target.format, options: input.options }, undefined, extra.signal);
        const feePaid = paying.payments.paidFor(job.receipt);
        started = { jobId: job.job_id, fee: feePaid?.amount ?? null, paidOn: await paidOn(feePaid, context) };
        await progress.report(5, `job ${job.job_id} started`);
        await paying.client.waitForJob(job.job_id, {
          signal: extra.signal,
          onProgress: (status) => {
            const percent = status.status === 'done' ? 90 : Math.max(5, Math.min(89, 'progress_percent' in status ? (status.progress_percent ?? 5) : 5));
            void progress.report(percent, `job ${status.status}`);
          },
        });
        const { result, content, text } = await deliverResult(paying, job.job_id, { context, results, embed: input.embed });
        await progress.report(100, 'saved');
        const fee = started.fee === null ? null : formatAmount(started.fee);
        return toolResult(
          { ...result, job_fee_usdc: fee, job_fee_paid_on: started.paidOn },
          `Converted ${describeFiles(file)} to ${input.target_format} (job ${job.job_id}${started.paidOn ? `, job fee ${fee} USDC ${describePaidOn(started.paidOn)}` : ''}). ${text}`,
          content,
        );
      } catch (error) {
        const session = { canAskUser: canAskUser() };
        if (!started) return toolError(describeError(error, context, session));
        return toolError(afterJobFee(started, error, error instanceof SpendLimitError ? describeRefusal(error, context, session.canAskUser) : describeError(error, context, session)));
      }
    },
  );
}

/** A failure once the job fee was paid: what was paid, and how to carry on with the job. */
function afterJobFee(job: StartedJob, error: unknown, reason: string): string {
  const paid =
    job.fee === null || !job.paidOn ? `Job ${job.jobId} was started` : `Job ${job.jobId} was started and its fee of ${formatAmount(job.fee)} USDC was paid ${describePaidOn(job.paidOn)}`;
  if (error instanceof SpendLimitError) {
    return `${paid}, but buying its result was refused: ${reason} Nothing more was signed or paid. Call purchase_result with job_id ${job.jobId} once the limits allow it.`;
  }
  if (error instanceof JobFailedError || error instanceof ResultNotSavedError) return `${paid}. ${reason}`;
  return `${paid}. ${reason} Check it with get_conversion_status and buy the result with purchase_result (job_id ${job.jobId}).`;
}
