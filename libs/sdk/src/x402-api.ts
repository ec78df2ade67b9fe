import { errorFromResponse, unwrap } from './api-errors.js';
import { type ClientContext, type Schemas, type WithReceipt, withReceipt } from './client-context.js';
import { JobFailedError, TimeoutError } from './errors.js';
import { type FileInput, headOf, prepareFile, toBase64 } from './file-input.js';
import type { PaymentReceipt } from './receipts.js';
import { retrying } from './retry.js';
import { sleep } from './wait.js';

export type DetectFileTypeResponse = Schemas['DetectFileTypeResponse'];
export type JobStatus = Schemas['JobStatus'];
export type JobStatusDone = Schemas['JobStatusDone'];
export type ConversionJobAccepted = Schemas['ConversionJobAccepted'];
export type PurchasedConversionResult = Schemas['PurchasedConversionResult'];

export interface ConvertFileOptions {
  input: FileInput | File;
  /** Output format without a dot, e.g. "webp". */
  targetFormat: string;
  /** Makes retries safe: the same key and file never pay the job fee twice. Generated when absent. */
  idempotencyKey?: string;
  onProgress?: (status: JobStatus) => void;
  signal?: AbortSignal;
  /** "bytes" (default) or a "stream" of the result. */
  as?: ResultForm;
}

export type ResultForm = 'bytes' | 'stream';

export type ConvertedFile<As extends ResultForm = 'bytes'> = {
  jobId: string;
  filename: string;
  mimeType: string;
  sizeBytes: number;
  /** The job fee and the result purchase (a payment whose answer was lost on the way has no receipt). */
  receipts: PaymentReceipt[];
} & (As extends 'stream' ? { stream: ReadableStream<Uint8Array> } : { data: Uint8Array });

/** The pay-per-call API (/api/x402/v1): detection, and conversion jobs that are polled and bought. */
export function x402Api({ api, download, conversionTimeoutMs }: ClientContext) {
  const helpers = {
    /** Detects a file's real type from its name, size and first 200 bytes (a paid call). */
    async detectFile(input: FileInput | File): Promise<WithReceipt<DetectFileTypeResponse>> {
      const file = await prepareFile(input);
      const result = await api.POST('/api/x402/v1/detect-file-type', {
        body: {
          filename: file.filename,
          size_bytes: file.sizeBytes,
          created_at: file.createdAt.toISOString(),
          header_first_200_bytes_base64: toBase64(await headOf(file.blob)),
        },
      });
      return withReceipt(unwrap(result), result.response);
    },

    /** Uploads a file and starts its conversion (pays the job fee); the same idempotency key never pays twice. */
    async startConversion(input: FileInput | File, targetFormat: string, idempotencyKey: string = newIdempotencyKey(), signal?: AbortSignal): Promise<WithReceipt<ConversionJobAccepted>> {
      const file = await prepareFile(input);
      const form = new FormData();
      form.append('target_format', targetFormat);
      form.append('filename', file.filename);
      form.append('created_at', file.createdAt.toISOString());
      form.append('size_bytes', String(file.sizeBytes));
      form.append('file', file.blob, file.filename);
      const result = await api.POST('/api/x402/v1/convert-file', {
        params: { header: { 'Idempotency-Key': idempotencyKey } },
        body: form as never,
        bodySerializer: (body) => body,
        signal,
      });
      return withReceipt(unwrap(result), result.response);
    },

    /** The job's status (free), with the wait before the next poll: Retry-After, else retry_after_seconds. */
    async getJob(jobId: string, signal?: AbortSignal): Promise<JobStatus & { retryAfterSeconds: number }> {
      const result = await api.GET('/api/x402/v1/convert-file/{job_id}/status', { params: { path: { job_id: jobId } }, signal });
      const status = unwrap(result);
      const retryAfter = Number(result.response.headers.get('Retry-After')) || ('retry_after_seconds' in status ? status.retry_after_seconds : 1);
      return { ...status, retryAfterSeconds: retryAfter };
    },

    /** Polls until the job is done (honouring Retry-After); JobFailedError, TimeoutError or the signal's abort otherwise. */
    async waitForJob(jobId: string, { onProgress, signal, timeoutMs = conversionTimeoutMs }: Pick<ConvertFileOptions, 'onProgress' | 'signal'> & { timeoutMs?: number } = {}): Promise<JobStatusDone> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const status = await retrying(() => helpers.getJob(jobId, signal), signal);
        onProgress?.(status);
        if (status.status === 'done') return status;
        if (status.status === 'failed') throw new JobFailedError(jobId, status.failure_type, status.message ?? `The conversion failed (${status.failure_type}).`);
        if (Date.now() + status.retryAfterSeconds * 1000 > deadline) throw new TimeoutError(`Job ${jobId} did not finish within ${timeoutMs} ms.`);
        await sleep(status.retryAfterSeconds * 1000, signal);
      }
    },

    /** Buys a finished job's result (priced by the upload's size; free again once bought) and returns its download URL. */
    async buyResult(jobId: string, signal?: AbortSignal): Promise<WithReceipt<PurchasedConversionResult>> {
      const result = await api.GET('/api/x402/v1/convert-file/{job_id}/result', { params: { path: { job_id: jobId } }, signal });
      return withReceipt(unwrap(result), result.response);
    },

    /** Removes the job and its files now instead of after 24 hours. */
    async deleteJob(jobId: string, signal?: AbortSignal): Promise<Schemas['DeleteJobResponse']> {
      return unwrap(await api.DELETE('/api/x402/v1/convert-file/{job_id}/delete', { params: { path: { job_id: jobId } }, signal }));
    },

    convertFile,
  };

  /**
   * The whole flow: start (job fee), poll, buy the result, download it. A lost answer or a 429 is
   * retried with the same idempotency key, so nothing is paid twice.
   */
  function convertFile(options: ConvertFileOptions & { as?: 'bytes' }): Promise<ConvertedFile<'bytes'>>;
  function convertFile(options: ConvertFileOptions & { as: 'stream' }): Promise<ConvertedFile<'stream'>>;
  async function convertFile({ input, targetFormat, idempotencyKey = newIdempotencyKey(), onProgress, signal, as }: ConvertFileOptions): Promise<ConvertedFile<ResultForm>> {
    // Read once: a stream can be read only once, and a retry must send the same file.
    const { blob, filename, createdAt } = await prepareFile(input);
    const file: FileInput = { data: blob, filename, createdAt };
    const started = await retrying(() => helpers.startConversion(file, targetFormat, idempotencyKey, signal), signal);
    const receipts = started.receipt ? [started.receipt] : [];
    await helpers.waitForJob(started.job_id, { onProgress, signal });
    const bought = await retrying(() => helpers.buyResult(started.job_id, signal), signal);
    if (bought.receipt) receipts.push(bought.receipt);
    const response = await retrying(() => download(bought.download_url, { signal }), signal);
    if (!response.ok || !response.body) throw errorFromResponse(response, await response.json().catch(() => undefined));
    const result = { jobId: started.job_id, filename: bought.filename, mimeType: bought.mime_type, sizeBytes: bought.result_size_bytes, receipts };
    return as === 'stream' ? { ...result, stream: response.body } : { ...result, data: new Uint8Array(await response.arrayBuffer()) };
  }

  return helpers;
}

function newIdempotencyKey(): string {
  return `fsdk-${crypto.randomUUID()}`;
}
