import { errorFromResponse, unwrap } from './api-errors.js';
import { type ClientContext, type Schemas, type WithReceipt, withReceipt } from './client-context.js';
import { conversionFlow } from './convert-file.js';
import { type FileInput, isJoinedFiles, isSourceUrl, type JoinedFiles, prepareFile, prepareJoinedFiles, type SourceUrl } from './file-input.js';
import { sampleFile, toBase64 } from './file-sample.js';
import { newIdempotencyKey } from './idempotency-key.js';
import { jobPolling, type JobStatusWithWait } from './job-polling.js';
import { multipartForm } from './multipart.js';
import { newPaymentIdentifier, PAYMENT_IDENTIFIER_HEADER } from './payment-identifier.js';
import { retryAfterSeconds } from './retry-after.js';
import type { TargetFormat } from './generated/target-formats.js';
import { type PriceDiscovery, pricesOf, type ServicePrices } from './service-prices.js';
import { type DeliveryRecord, VerificationError } from './signed-records.js';

export type DetectFileTypeResponse = Schemas['DetectFileTypeResponse'];
export type JobStatus = Schemas['JobStatus'];
export type JobStatusDone = Schemas['JobStatusDone'];
export type ConversionJobAccepted = Schemas['ConversionJobAccepted'];
export type PurchasedConversionResult = Schemas['PurchasedConversionResult'];
export type FormatCatalogue = Schemas['FormatCatalogue'];
/** A bought result: its download URL, the settlement receipt of this call's payment, and the verified delivery record of the sale. */
export type BoughtResult = WithReceipt<PurchasedConversionResult> & { deliveryRecord?: DeliveryRecord };
/** Options of a conversion (quality, width, pages, dpi…); each applies to some conversions only, see getFormats(). */
export type ConversionOptions = Schemas['ConversionOptions'];
/** What to convert to: a target format, or a target format with options. */
export type ConversionTarget = TargetFormat | { format: TargetFormat; options?: ConversionOptions };

export interface DetectFileOptions {
  /** Stops reading the input and the request. */
  signal?: AbortSignal;
  /**
   * The payment's identifier (x402 `payment-identifier`): a repeat of the call with the same one is answered from
   * the first payment and charged nothing. Generated when absent; pass the same one when you retry a call.
   */
  paymentId?: string;
}

/**
 * What an upload sends: one file part, or (several files) one part each in order, each named by its own file, the job
 * named by the join's filename (the first file's by default) and sized by their total; created_at is the first file's.
 */
async function uploadOf(input: FileInput | File | JoinedFiles): Promise<{ filename: string; createdAt: Date; sizeBytes: number; parts: Blob | Blob[]; partNames?: string[] }> {
  if (!isJoinedFiles(input)) {
    const file = await prepareFile(input);
    return { ...file, parts: file.blob };
  }
  const { files, filename, sizeBytes } = await prepareJoinedFiles(input);
  return { filename, createdAt: files[0]!.createdAt, sizeBytes, parts: files.map((file) => file.blob), partNames: files.map((file) => file.filename) };
}

/** The pay-per-call API (/api/x402/v1): detection, and conversion jobs that are polled and bought. */
export function x402Api(context: ClientContext) {
  const { api, clock, conversionTimeoutMs, verifier } = context;
  /** For the payer, which takes it off the request: without one nothing is paid and the service never sees it. */
  const identifying = (paymentId: string): Record<string, string> => (context.payer ? { [PAYMENT_IDENTIFIER_HEADER]: paymentId } : {});

  /**
   * Detects a file's real type from its name, size and first 200 bytes (a paid call); reads no more of it than that.
   * Given a `{ url }`, the service fetches the file itself (same price; nothing is charged when it cannot).
   */
  async function detectFile(input: FileInput | File | SourceUrl, { signal, paymentId = newPaymentIdentifier() }: DetectFileOptions = {}): Promise<WithReceipt<DetectFileTypeResponse>> {
    const body = isSourceUrl(input) ? { source_url: input.url, ...(input.filename ? { filename: input.filename } : {}) } : await describedFile(input, signal);
    const result = await api.POST('/api/x402/v1/detect-file-type', { headers: identifying(paymentId), body, signal });
    return withReceipt(unwrap(result, clock.now()), result.response, verifier);
  }

  async function describedFile(input: FileInput | File, signal?: AbortSignal) {
    const file = await sampleFile(input, signal);
    return { filename: file.filename, size_bytes: file.sizeBytes, created_at: file.createdAt.toISOString(), header_first_200_bytes_base64: toBase64(file.header) };
  }

  /**
   * Uploads a file, or names its URL for the service to fetch, and starts its conversion (pays the job fee); given
   * `{ files: [a, b, …] }`, uploads them all and starts one job joining them (merge PDFs, pictures into a PDF, files
   * into an archive). The same idempotency key and file never pay twice; the key used (generated when absent) is in
   * the answer. `paymentId`: see DetectFileOptions. `webhookUrl`: where the service POSTs a signed event when the job
   * ends (verifyWebhook checks it).
   */
  async function startConversion(
    input: FileInput | File | SourceUrl | JoinedFiles,
    target: ConversionTarget,
    idempotencyKey: string = newIdempotencyKey(),
    signal?: AbortSignal,
    paymentId: string = newPaymentIdentifier(),
    webhookUrl?: string,
  ): Promise<WithReceipt<ConversionJobAccepted> & { idempotencyKey: string }> {
    const { format, options } = typeof target === 'string' ? { format: target, options: undefined } : target;
    const hasOptions = options !== undefined && Object.keys(options).length > 0;
    const webhookField = webhookUrl ? { webhook_url: webhookUrl } : {};
    const request = { params: { header: { 'Idempotency-Key': idempotencyKey } }, headers: identifying(paymentId), signal };
    if (isSourceUrl(input)) {
      const body = { source_url: input.url, target_format: format, ...(input.filename ? { filename: input.filename } : {}), ...(hasOptions ? { options } : {}), ...webhookField };
      const result = await api.POST('/api/x402/v1/convert-file', { ...request, body, headers: { ...request.headers, 'Content-Type': 'application/json' } });
      return { ...(await withReceipt(unwrap(result, clock.now()), result.response, verifier)), idempotencyKey };
    }
    const upload = await uploadOf(input);
    // Sent only when there are some: a request without options stays what it was (and keeps its idempotency fingerprint).
    const optionsField = hasOptions ? { options: JSON.stringify(options) } : {};
    const result = await api.POST('/api/x402/v1/convert-file', {
      ...request,
      // The file parts last: the service reads the fields before the upload.
      body: { target_format: format, ...optionsField, ...webhookField, filename: upload.filename, created_at: upload.createdAt.toISOString(), size_bytes: upload.sizeBytes, file: upload.parts },
      bodySerializer: (body) => multipartForm(body, upload.filename, upload.partNames),
    });
    return { ...(await withReceipt(unwrap(result, clock.now()), result.response, verifier)), idempotencyKey };
  }

  /**
   * The job's status (free), with the wait before the next poll: Retry-After (seconds or HTTP date), else
   * retry_after_seconds. With `waitSeconds` (at most 30) the service answers as soon as the job ends, or after that long.
   */
  async function getJob(jobId: string, signal?: AbortSignal, waitSeconds?: number): Promise<JobStatusWithWait> {
    const query = waitSeconds ? { wait: waitSeconds } : undefined;
    const result = await api.GET('/api/x402/v1/convert-file/{job_id}/status', { params: { path: { job_id: jobId }, query }, signal });
    const status = unwrap(result, clock.now());
    const retryAfter = retryAfterSeconds(result.response.headers.get('Retry-After'), clock.now()) ?? ('retry_after_seconds' in status ? status.retry_after_seconds : 1);
    return { ...status, retryAfterSeconds: retryAfter };
  }

  /**
   * Buys a finished job's result (priced by the upload's size; free again once bought) and returns its download URL.
   * `paymentId`: see DetectFileOptions.
   */
  async function buyResult(jobId: string, signal?: AbortSignal, paymentId: string = newPaymentIdentifier()): Promise<BoughtResult> {
    const result = await api.GET('/api/x402/v1/convert-file/{job_id}/result', { params: { path: { job_id: jobId } }, headers: identifying(paymentId), signal });
    const bought = await withReceipt(unwrap(result, clock.now()), result.response, verifier);
    if (!bought.delivery_record) return bought;
    const deliveryRecord = await verifier.verify<Omit<DeliveryRecord, 'jws' | 'kid'>>(bought.delivery_record);
    if (deliveryRecord.jobId !== jobId || (bought.payment?.tx_hash && deliveryRecord.payment.transaction !== bought.payment.tx_hash)) {
      throw new VerificationError(`The delivery record is for another job or payment (job ${deliveryRecord.jobId}, transaction ${deliveryRecord.payment.transaction}).`);
    }
    return { ...bought, deliveryRecord };
  }

  /** Removes the job and its files now instead of after 24 hours. */
  async function deleteJob(jobId: string, signal?: AbortSignal): Promise<Schemas['DeleteJobResponse']> {
    return unwrap(await api.DELETE('/api/x402/v1/convert-file/{job_id}/delete', { params: { path: { job_id: jobId } }, signal }), clock.now());
  }

  /** The service's current prices, from its discovery document /.well-known/x402.json (free). */
  async function getPrices(signal?: AbortSignal): Promise<ServicePrices> {
    const response = await context.download(`${context.baseUrl}/.well-known/x402.json`, { signal });
    const body: unknown = await response.json().catch(() => undefined);
    if (!response.ok || typeof body !== 'object' || body === null) throw errorFromResponse(response, body, clock.now());
    return pricesOf(body as PriceDiscovery);
  }

  /** The format catalogue (free): every input format the running workers read, its targets, and the options each conversion takes. */
  async function getFormats(signal?: AbortSignal): Promise<FormatCatalogue> {
    return unwrap(await api.GET('/api/x402/v1/formats', { signal }), clock.now());
  }

  const waitForJob = jobPolling(getJob, clock, conversionTimeoutMs);
  const steps = { startConversion, waitForJob, buyResult };
  const convertFile = conversionFlow(
    {
      steps,
      getPrices,
      // Each conversion pays through a payer committed to its whole cost (checked and approved once).
      stepsPayingWith: (payer) => (payer === context.payer ? steps : x402Api({ ...context, api: context.apiPayingWith(payer), payer })),
    },
    context,
  );
  return { detectFile, startConversion, getJob, waitForJob, buyResult, deleteJob, convertFile, getPrices, getFormats };
}
