import { errorFromResponse } from './api-errors.js';
import type { ClientContext, WithReceipt } from './client-context.js';
import { withConversionRef } from './conversion-ref.js';
import type { ConversionRef } from './errors.js';
import { type FileInput, prepareFile } from './file-input.js';
import { newIdempotencyKey } from './idempotency-key.js';
import type { WaitForJobOptions } from './job-polling.js';
import type { SettlementReceipt } from './receipts.js';
import { retrying } from './retry.js';
import type { ConversionJobAccepted, JobStatus, JobStatusDone, PurchasedConversionResult } from './x402-api.js';

export interface ConvertFileOptions {
  input: FileInput | File;
  /** Output format without a dot, e.g. "webp". */
  targetFormat: string;
  /**
   * Makes retries safe: the same key and file never pay the job fee twice. Generated when absent; the
   * key used is in the result, and on every error thrown after the job start was sent.
   */
  idempotencyKey?: string;
  onProgress?: (status: JobStatus) => void;
  signal?: AbortSignal;
  /** "bytes" (default) or a "stream" of the result. */
  as?: ResultForm;
}

export type ResultForm = 'bytes' | 'stream';

export type ConvertedFile<As extends ResultForm = 'bytes'> = {
  jobId: string;
  /** The key the job was started with (yours, or the generated one). */
  idempotencyKey: string;
  filename: string;
  mimeType: string;
  sizeBytes: number;
  /** The settlements this call made: job fee and result purchase (a payment whose answer was lost has none; a repeat with the same key makes none). */
  receipts: SettlementReceipt[];
  /** The service's record of the result purchase (price, transaction, time), also when an earlier call bought it. */
  resultPayment?: PurchasedConversionResult['payment'];
} & (As extends 'stream' ? { stream: ReadableStream<Uint8Array> } : { data: Uint8Array });

/** The steps convertFile runs, from the x402 API of the same client. */
interface ConversionSteps {
  startConversion(input: FileInput, targetFormat: string, idempotencyKey: string, signal?: AbortSignal): Promise<WithReceipt<ConversionJobAccepted>>;
  waitForJob(jobId: string, options: WaitForJobOptions): Promise<JobStatusDone>;
  buyResult(jobId: string, signal?: AbortSignal): Promise<WithReceipt<PurchasedConversionResult>>;
}

/**
 * convertFile: start (job fee), poll, buy the result, download it. A lost answer or a 429 is retried
 * with the same idempotency key, so nothing is paid twice. Every error after the job start was sent
 * carries `idempotencyKey`, and `jobId` once the job exists (see ConversionRef).
 */
export function conversionFlow(steps: ConversionSteps, { download, clock }: Pick<ClientContext, 'download' | 'clock'>) {
  function convertFile(options: ConvertFileOptions & { as?: 'bytes' }): Promise<ConvertedFile<'bytes'>>;
  function convertFile(options: ConvertFileOptions & { as: 'stream' }): Promise<ConvertedFile<'stream'>>;
  async function convertFile({ input, targetFormat, idempotencyKey = newIdempotencyKey(), onProgress, signal, as }: ConvertFileOptions): Promise<ConvertedFile<ResultForm>> {
    // Read once: a stream can be read only once, and a retry must send the same file.
    const { blob, filename, createdAt } = await prepareFile(input);
    const file: FileInput = { data: blob, filename, createdAt };
    const retry = <T>(call: () => Promise<T>) => retrying(call, { sleep: clock.sleep, signal });
    const ref: ConversionRef = { idempotencyKey };
    try {
      const started = await retry(() => steps.startConversion(file, targetFormat, idempotencyKey, signal));
      ref.jobId = started.job_id;
      const receipts = started.receipt ? [started.receipt] : [];
      await steps.waitForJob(started.job_id, { onProgress, signal });
      // An abort that came with the last status (e.g. from onProgress) must not buy the result.
      signal?.throwIfAborted();
      const bought = await retry(() => steps.buyResult(started.job_id, signal));
      if (bought.receipt) receipts.push(bought.receipt);
      const response = await retry(() => download(bought.download_url, { signal }));
      if (!response.ok || !response.body) throw errorFromResponse(response, await response.json().catch(() => undefined), clock.now());
      const result = {
        jobId: started.job_id,
        idempotencyKey,
        filename: bought.filename,
        mimeType: bought.mime_type,
        sizeBytes: bought.result_size_bytes,
        receipts,
        ...(bought.payment ? { resultPayment: bought.payment } : {}),
      };
      return as === 'stream' ? { ...result, stream: response.body } : { ...result, data: new Uint8Array(await response.arrayBuffer()) };
    } catch (error) {
      throw withConversionRef(error, ref, signal);
    }
  }
  return convertFile;
}
