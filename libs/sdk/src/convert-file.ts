import { errorFromResponse } from './api-errors.js';
import type { ClientContext, WithReceipt } from './client-context.js';
import { conversionPlan } from './conversion-plan.js';
import { withConversionRef } from './conversion-ref.js';
import type { ConversionRef } from './errors.js';
import { type FileInput, isSourceUrl, type JoinedFiles, prepareFile, prepareJoinedFiles, type SourceUrl } from './file-input.js';
import { newIdempotencyKey } from './idempotency-key.js';
import type { WaitForJobOptions } from './job-polling.js';
import type { Payer } from './payer.js';
import { newPaymentIdentifier } from './payment-identifier.js';
import type { SettlementReceipt } from './receipts.js';
import { retrying } from './retry.js';
import type { ServicePrices } from './service-prices.js';
import type { TargetFormat } from './generated/target-formats.js';
import { checkDelivered, checkingDelivered, type DeliveryRecord } from './signed-records.js';
import type { BoughtResult, ConversionJobAccepted, ConversionOptions, ConversionTarget, JobStatus, JobStatusDone, PurchasedConversionResult } from './x402-api.js';

/** What convertFile converts: exactly one of `input` (one file) and `files` (several joined into one). */
export type ConvertFileOptions = ConversionSettings & (OneFile | SeveralFiles);

interface OneFile {
  /** The file: its data, or `{ url }` for the service to fetch (the spend plan then counts the highest result price). */
  input: FileInput | File | SourceUrl;
  files?: never;
  filename?: never;
}

interface SeveralFiles {
  input?: never;
  /**
   * Several files joined into one result in one job, in order (2 to 50, 40 MiB together): PDFs merged into a PDF,
   * pictures into a PDF a page each, documents into a PDF, any files into an archive (zip, tar, 7z…). One job fee, and
   * the result priced by their total size. A file no join into `targetFormat` takes is refused before any payment.
   */
  files: JoinedFiles['files'];
  /** The result's name (with the target's extension); by default the first file's. */
  filename?: string;
}

interface ConversionSettings {
  /** Output format without a dot, e.g. "webp" (aliases such as "jpeg" too); a format the service does not know does not compile. */
  targetFormat: TargetFormat;
  /**
   * Options of the conversion, e.g. { quality: 80, width: 800 }, or an operation such as { rotate: 90 },
   * { password: { user: 's3cret' } }, { split: { every: 2 } } (into a zip); one that does not apply to it is refused
   * before any payment.
   */
  options?: ConversionOptions;
  /**
   * Makes retries safe: the same key and file never pay the job fee twice. Generated when absent; the
   * key used is in the result, and on every error thrown after the job start was sent.
   */
  idempotencyKey?: string;
  onProgress?: (status: JobStatus) => void;
  /** Where the service POSTs a signed event when the job ends (done or failed); `verifyWebhook` checks a delivery. */
  webhookUrl?: string;
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
  /** What the conversion did that you should know, e.g. what strip_metadata removed; absent when there is nothing to say. */
  notes?: string[];
  /**
   * The sale's delivery record, verified against the service's key; the downloaded file was checked against it (a
   * stream fails at its end when it differs). Absent only from a service that signs none.
   */
  deliveryRecord?: DeliveryRecord;
} & (As extends 'stream' ? { stream: ReadableStream<Uint8Array> } : { data: Uint8Array });

/** The steps convertFile runs, from the x402 API of the same client. */
interface ConversionSteps {
  startConversion(input: FileInput | SourceUrl | JoinedFiles, target: ConversionTarget, idempotencyKey: string, signal?: AbortSignal, paymentId?: string, webhookUrl?: string): Promise<WithReceipt<ConversionJobAccepted>>;
  waitForJob(jobId: string, options: WaitForJobOptions): Promise<JobStatusDone>;
  buyResult(jobId: string, signal?: AbortSignal, paymentId?: string): Promise<BoughtResult>;
}

/** Where convertFile gets its steps: the client's own, or the same paying through a payer committed to the conversion. */
interface ConversionServices {
  steps: ConversionSteps;
  getPrices(signal?: AbortSignal): Promise<ServicePrices>;
  stepsPayingWith(payer: Payer): ConversionSteps;
}

/**
 * convertFile: check the whole cost against the payer's limits (approved once), start (job fee), poll,
 * buy the result, download it. A lost answer or a 429 is retried
 * with the same idempotency key and payment identifiers, so nothing is paid twice. Every error after the job start was sent
 * carries `idempotencyKey`, and `jobId` once the job exists (see ConversionRef).
 */
export function conversionFlow(services: ConversionServices, { download, clock, payer }: Pick<ClientContext, 'download' | 'clock' | 'payer'>) {
  function convertFile(options: ConvertFileOptions & { as?: 'bytes' }): Promise<ConvertedFile<'bytes'>>;
  function convertFile(options: ConvertFileOptions & { as: 'stream' }): Promise<ConvertedFile<'stream'>>;
  async function convertFile(request: ConvertFileOptions): Promise<ConvertedFile<ResultForm>> {
    const { targetFormat, options, idempotencyKey = newIdempotencyKey(), onProgress, webhookUrl, signal, as } = request;
    // Read once: a stream can be read only once, and a retry must send the same file.
    const { file, filename, sizeBytes, fileCount } = await readOnce(request);
    const retry = <T>(call: () => Promise<T>) => retrying(call, { sleep: clock.sleep, signal });
    const ref: ConversionRef = { idempotencyKey };
    try {
      // Before the first payment: the job fee and the result must fit the limits together, approved once.
      const steps = payer
        ? services.stepsPayingWith(await payer.commit(conversionPlan(await retry(() => services.getPrices(signal)), { filename, sizeBytes, targetFormat, fileCount })))
        : services.steps;
      // One payment identifier per paid step, kept across its retries: a repeat is answered from the first payment.
      const [startPayment, resultPayment] = [newPaymentIdentifier(), newPaymentIdentifier()];
      const started = await retry(() => steps.startConversion(file, { format: targetFormat, options }, idempotencyKey, signal, startPayment, webhookUrl));
      ref.jobId = started.job_id;
      const receipts = started.receipt ? [started.receipt] : [];
      const done = await steps.waitForJob(started.job_id, { onProgress, signal });
      // An abort that came with the last status (e.g. from onProgress) must not buy the result.
      signal?.throwIfAborted();
      const bought = await retry(() => steps.buyResult(started.job_id, signal, resultPayment));
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
        ...(bought.deliveryRecord ? { deliveryRecord: bought.deliveryRecord } : {}),
        ...(done.notes?.length ? { notes: done.notes } : {}),
      };
      const record = bought.deliveryRecord;
      if (as === 'stream') return { ...result, stream: record ? checkingDelivered(record, response.body) : response.body };
      const data = new Uint8Array(await response.arrayBuffer());
      if (record) checkDelivered(record, data);
      return { ...result, data };
    } catch (error) {
      throw withConversionRef(error, ref, signal);
    }
  }
  return convertFile;
}

/**
 * The input as every retry sends it: a file (or each of several) read whole once (a stream can be read only once), or
 * the URL as it is. Several files are planned as the one job they are: by their total size.
 */
async function readOnce(request: OneFile | SeveralFiles): Promise<{ file: FileInput | SourceUrl | JoinedFiles; filename: string; sizeBytes?: number; fileCount?: number }> {
  if (request.files) {
    const joined = await prepareJoinedFiles({ files: request.files, filename: request.filename });
    const files = joined.files.map(({ blob, filename, createdAt }) => ({ data: blob, filename, createdAt }));
    return { file: { files, filename: joined.filename }, filename: joined.filename, sizeBytes: joined.sizeBytes, fileCount: files.length };
  }
  const { input } = request;
  if (isSourceUrl(input)) return { file: input, filename: input.filename ?? nameInUrl(input.url) };
  const { blob, filename, createdAt } = await prepareFile(input);
  return { file: { data: blob, filename, createdAt }, filename, sizeBytes: blob.size };
}

/** What the spend plan calls a file by URL without a filename: the URL's last path segment, never the URL (a plan is shown and logged). */
function nameInUrl(url: string): string {
  try {
    const segment = new URL(url).pathname.split('/').at(-1);
    if (segment) return decodeURIComponent(segment);
  } catch {
    // Not a URL, or a broken escape: the service refuses it; the plan needs only a name.
  }
  return 'a file by URL';
}
