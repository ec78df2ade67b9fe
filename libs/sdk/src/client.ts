import createOpenApiClient, { type Client } from 'openapi-fetch';
import { errorFromResponse } from './api-errors.js';
import { JobFailedError, TimeoutError } from './errors.js';
import { type FileInput, headOf, prepareFile, toBase64 } from './file-input.js';
import type { components, paths } from './generated/openapi.js';
import type { Payer } from './payer.js';
import { type PaymentReceipt, receiptOf } from './receipts.js';

type Schemas = components['schemas'];
export type DetectFileTypeResponse = Schemas['DetectFileTypeResponse'];
export type JobStatus = Schemas['JobStatus'];
export type JobStatusDone = Schemas['JobStatusDone'];
export type ConversionJobAccepted = Schemas['ConversionJobAccepted'];
export type PurchasedConversionResult = Schemas['PurchasedConversionResult'];
export type OutputFormatsByType = Omit<Schemas['KeyApiListByTypeResponse'], 'Status'>;

export interface ClientOptions {
  /** e.g. https://fileshift.example.com (no trailing /api…). */
  baseUrl: string;
  /** For the key API (/api/v1): sent as the Api-Key header; without it the no-key testing limits apply. */
  apiKey?: string;
  /** Pays the x402 API's 402 challenges within its limits; without it a 402 is a PaymentRequiredError. */
  payer?: Payer;
  fetch?: typeof globalThis.fetch;
  /** Longest wait for a conversion in convertFile; default 10 minutes. */
  conversionTimeoutMs?: number;
}

export interface ConvertFileOptions {
  input: FileInput | File;
  /** Output format without a dot, e.g. "webp". */
  targetFormat: string;
  /** Makes retries safe: the same key and file never pay the job fee twice. Generated when absent. */
  idempotencyKey?: string;
  onProgress?: (status: JobStatus) => void;
  signal?: AbortSignal;
  /** "bytes" (default) or a "stream" of the result. */
  as?: 'bytes' | 'stream';
}

export interface ConvertedFile {
  jobId: string;
  filename: string;
  mimeType: string;
  sizeBytes: number;
  data?: Uint8Array;
  stream?: ReadableStream<Uint8Array>;
  /** The job fee and the result purchase. */
  receipts: PaymentReceipt[];
}

export type WithReceipt<T> = T & { receipt?: PaymentReceipt };

const DEFAULT_CONVERSION_TIMEOUT_MS = 10 * 60_000;

/** A client of both APIs. No global state: each client has its own fetch, key and payer. */
export function createClient(options: ClientOptions) {
  const baseFetch: typeof globalThis.fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const fetch = options.payer ? options.payer.wrap(baseFetch) : baseFetch;
  const api: Client<paths> = createOpenApiClient<paths>({ baseUrl: options.baseUrl.replace(/\/+$/, ''), fetch });
  if (options.apiKey) {
    const apiKey = options.apiKey;
    api.use({
      onRequest({ request, schemaPath }) {
        if (schemaPath.startsWith('/api/v1/')) request.headers.set('Api-Key', apiKey);
        return request;
      },
    });
  }

  /** The answer's data, or its typed error. */
  async function unwrap<T>(result: { data?: T; error?: unknown; response: Response }): Promise<T> {
    if (result.response.ok && result.data !== undefined) return result.data;
    throw errorFromResponse(result.response, result.error);
  }

  const client = {
    /** The typed openapi-fetch client for any endpoint. */
    api,

    /** Detects a file's real type from its name, size and first 200 bytes (a paid x402 call). */
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
      return withReceipt(await unwrap(result), result.response);
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
      return withReceipt(await unwrap(result), result.response);
    },

    async getJob(jobId: string, signal?: AbortSignal): Promise<JobStatus & { retryAfterSeconds: number }> {
      const result = await api.GET('/api/x402/v1/convert-file/{job_id}/status', { params: { path: { job_id: jobId } }, signal });
      const status = await unwrap(result);
      const retryAfter = Number(result.response.headers.get('Retry-After')) || ('retry_after_seconds' in status ? status.retry_after_seconds : 1);
      return { ...status, retryAfterSeconds: retryAfter };
    },

    /** Polls until the job is done (honouring Retry-After); JobFailedError, TimeoutError or the signal's abort otherwise. */
    async waitForJob(jobId: string, { onProgress, signal, timeoutMs = options.conversionTimeoutMs ?? DEFAULT_CONVERSION_TIMEOUT_MS }: Pick<ConvertFileOptions, 'onProgress' | 'signal'> & { timeoutMs?: number } = {}): Promise<JobStatusDone> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const status = await client.getJob(jobId, signal);
        onProgress?.(status);
        if (status.status === 'done') return status;
        if (status.status === 'failed') throw new JobFailedError(jobId, status.failure_type, status.message ?? `The conversion failed (${status.failure_type}).`);
        if (Date.now() + status.retryAfterSeconds * 1000 > deadline) throw new TimeoutError(`Job ${jobId} did not finish within ${timeoutMs} ms.`);
        await sleep(status.retryAfterSeconds * 1000, signal);
      }
    },

    /** Buys a finished job's result (paid by size; free again once bought) and returns its download URL. */
    async buyResult(jobId: string, signal?: AbortSignal): Promise<WithReceipt<PurchasedConversionResult>> {
      const result = await api.GET('/api/x402/v1/convert-file/{job_id}/result', { params: { path: { job_id: jobId } }, signal });
      return withReceipt(await unwrap(result), result.response);
    },

    async deleteJob(jobId: string): Promise<Schemas['DeleteJobResponse']> {
      return unwrap(await api.DELETE('/api/x402/v1/convert-file/{job_id}/delete', { params: { path: { job_id: jobId } } }));
    },

    /** The whole flow: start (job fee), poll, buy the result, download it. */
    async convertFile({ input, targetFormat, idempotencyKey, onProgress, signal, as = 'bytes' }: ConvertFileOptions): Promise<ConvertedFile> {
      const started = await client.startConversion(input, targetFormat, idempotencyKey ?? newIdempotencyKey(), signal);
      const receipts = started.receipt ? [started.receipt] : [];
      await client.waitForJob(started.job_id, { onProgress, signal });
      const bought = await client.buyResult(started.job_id, signal);
      if (bought.receipt) receipts.push(bought.receipt);
      const download = await baseFetch(bought.download_url, { signal });
      if (!download.ok || !download.body) throw errorFromResponse(download, await download.json().catch(() => undefined));
      const file = { jobId: started.job_id, filename: bought.filename, mimeType: bought.mime_type, sizeBytes: bought.result_size_bytes, receipts };
      return as === 'stream' ? { ...file, stream: download.body } : { ...file, data: new Uint8Array(await download.arrayBuffer()) };
    },

    /** Key API: stores a file; answers the server-side Filename to convert. */
    async upload(input: FileInput | File): Promise<string> {
      const file = await prepareFile(input);
      const form = new FormData();
      form.append('file', file.blob, file.filename);
      const result = await api.POST('/api/v1/upload', { body: form as never, bodySerializer: (body) => body });
      return (await unwrap(result)).Filename;
    },

    /** Key API: converts an uploaded file (the server waits for it) and answers absolute download URLs. */
    async convert(request: { filename: string; extIn: string; extOut: string }): Promise<{ extOut: string; urls: string[] }> {
      const result = await api.POST('/api/v1/convert', { body: { filename: request.filename, ext_in: request.extIn, ext_out: request.extOut } });
      const { file } = await unwrap(result);
      return { extOut: file.ext_out, urls: file.urls.map((url) => new URL(url, `${options.baseUrl.replace(/\/+$/, '')}/`).toString()) };
    },

    async listFormats(extIn: string): Promise<string[]> {
      return (await unwrap(await api.POST('/api/v1/list_ext_out', { body: { ext_in: extIn } }))).extensions;
    },

    async listFormatsByType(extIn: string): Promise<OutputFormatsByType> {
      const { Status: _status, ...formats } = await unwrap(await api.POST('/api/v1/list_ext_out_by_type', { body: { ext_in: extIn } }));
      return formats;
    },

    /** Key API detection: the service's one-sentence answer. */
    async detect(input: FileInput | File, mimeType = ''): Promise<string> {
      const file = await prepareFile(input);
      const extension = /\.([^./\\]+)$/.exec(file.filename)?.[1]?.toLowerCase() ?? '';
      const text = (value: string) => new TextEncoder().encode(value);
      const separator = new Uint8Array([0xfe]);
      const parts = [text(extension), text(file.sizeBytes.toString(16)), text(mimeType), text(file.filename), await headOf(file.blob)];
      const body = new Blob(parts.flatMap((part, index) => (index ? [separator, part] : [part])) as Uint8Array<ArrayBuffer>[]);
      const response = await fetch(`${options.baseUrl.replace(/\/+$/, '')}/api/v1/detect_file_type`, {
        method: 'POST',
        headers: { 'content-type': 'application/octet-stream', accept: 'text/plain', ...(options.apiKey ? { 'Api-Key': options.apiKey } : {}) },
        body,
      });
      if (!response.ok) throw errorFromResponse(response, await response.json().catch(() => undefined));
      return response.text();
    },
  };
  return client;
}

export type FileshiftClient = ReturnType<typeof createClient>;

function withReceipt<T extends object>(data: T, response: Response): WithReceipt<T> {
  const receipt = receiptOf(response);
  return receipt ? { ...data, receipt } : data;
}

function newIdempotencyKey(): string {
  return `fsdk-${crypto.randomUUID()}`;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
