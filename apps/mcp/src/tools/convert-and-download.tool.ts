import { z } from 'zod';
import { fileInputShape, loadFileInput } from '../file-input.js';
import { fixedPrice } from '../fileshift-context.js';
import { describeError } from './describe-error.js';
import { deliveredResultShape, deliverResult, describeDelivery, MAX_EMBEDDED_BYTES } from './deliver-result.js';
import type { ToolDeps } from './tool-deps.js';
import { toolError, toolResult } from './tool-result.js';

export function registerConvertAndDownload({ server, context, allowLocalPaths, client }: ToolDeps): void {
  server.registerTool(
    'convert_and_download',
    {
      title: 'Convert a file and download the result',
      description:
        'The whole conversion in one call: uploads the file, pays the 0.002 USDC job fee, waits for the conversion (with progress ' +
        'notifications), pays for the result (0.02 USDC up to 10 MB, 0.04 USDC above) and saves it to the output directory. ' +
        'Everything is paid from the agent wallet within its limits.',
      inputSchema: {
        ...fileInputShape,
        target_format: z.string().min(1).max(20).describe('Output format without a dot, e.g. webp, pdf, mp3.'),
        embed: z.boolean().default(false).describe(`Also return the file inline when it has at most ${MAX_EMBEDDED_BYTES} bytes.`),
      },
      outputSchema: { ...deliveredResultShape, job_fee_usdc: z.string().nullable() },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    },
    async (input, extra) => {
      try {
        const file = await loadFileInput(input, { allowLocalPaths });
        const paying = await client();
        const progressToken = extra._meta?.progressToken;
        const progress = async (value: number, message: string) => {
          if (progressToken !== undefined) await extra.sendNotification({ method: 'notifications/progress', params: { progressToken, progress: value, total: 100, message } });
        };
        const started = await paying.startConversion({ data: file.bytes, filename: file.filename, createdAt: file.createdAt }, input.target_format, undefined, extra.signal);
        await progress(5, `job ${started.job_id} started`);
        await paying.waitForJob(started.job_id, {
          signal: extra.signal,
          onProgress: (job) => void progress(job.status === 'done' ? 90 : Math.max(5, Math.min(89, 'progress_percent' in job ? (job.progress_percent ?? 5) : 5)), `job ${job.status}`),
        });
        const { result, embedded } = await deliverResult(paying, started.job_id, context.config.outputDir, input.embed);
        await progress(100, 'saved');
        const jobFee = started.receipt ? fixedPrice(await context.serviceFacts(), 'createConversionJob') : null;
        return toolResult({ ...result, job_fee_usdc: jobFee }, `Converted ${file.filename} to ${input.target_format} (job ${started.job_id}, fee ${jobFee} USDC). ${describeDelivery(result)}`, embedded);
      } catch (error) {
        return toolError(await describeError(error, context));
      }
    },
  );
}
