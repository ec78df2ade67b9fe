import { unwrap } from './api-errors.js';
import type { ClientContext, Schemas } from './client-context.js';
import { type FileInput, isSourceUrl, prepareFile, type SourceUrl } from './file-input.js';
import { sampleFile } from './file-sample.js';
import type { paths } from './generated/openapi.js';
import { multipartForm } from './multipart.js';

export type OutputFormatsByType = Omit<Schemas['KeyApiListByTypeResponse'], 'Status'>;
/** The JSON form of the key API's detection (the document types only `Status`; the rest is the service's). */
export type KeyApiDetection = paths['/api/v1/detect_file_type']['post']['responses'][200]['content']['application/json'];

export interface DetectOptions<As extends 'text' | 'json'> {
  /** The guessed MIME type segment; default: the Blob's own type. */
  mimeType?: string;
  /** "text" (default): the service's one sentence; "json": the same facts as an object. */
  as?: As;
}

export interface KeyApiConvertRequest {
  /** The Filename upload answered. */
  filename: string;
  /** Its type, as an extension (a hint: the bytes decide). */
  extIn: string;
  extOut: string;
  /** Other uploads' Filenames joined after `filename` into one `extOut` file, in order (50 files at most, 40 MiB together). */
  join?: readonly string[];
  /** Options of the conversion, e.g. { rotate: 90 }; one that does not apply to it is refused. */
  options?: Schemas['ConversionOptions'];
  webhookUrl?: string;
}

/** The key-authenticated API (/api/v1); the Api-Key header comes from the client's middleware. */
export function keyApi({ api, baseUrl, clock }: ClientContext) {
  return {
    /** Stores a file, or the file the service fetches from `{ url }`; answers the server-side Filename to convert (valid 24 hours). */
    async upload(input: FileInput | File | SourceUrl): Promise<string> {
      if (isSourceUrl(input)) {
        const body = { source_url: input.url, ...(input.filename ? { filename: input.filename } : {}) };
        return unwrap(await api.POST('/api/v1/upload', { body, headers: { 'Content-Type': 'application/json' } }), clock.now()).Filename;
      }
      const file = await prepareFile(input);
      const result = await api.POST('/api/v1/upload', { body: { file: file.blob }, bodySerializer: (body) => multipartForm(body, file.filename) });
      return unwrap(result, clock.now()).Filename;
    },

    /**
     * Converts an uploaded file (the server waits for it) and answers absolute download URLs, and `notes` when the
     * conversion has something to say (e.g. what strip_metadata removed). `join`: other uploads' Filenames joined after
     * `filename` into one `extOut` file, in order (merge PDFs, pictures into a PDF, files into an archive). `options`:
     * as convertFile's. `webhookUrl`: where the service also POSTs a signed event when the job ends (verifyWebhook checks it).
     */
    async convert(request: KeyApiConvertRequest): Promise<{ extOut: string; urls: string[]; notes?: string[] }> {
      const body = {
        filename: request.filename,
        ext_in: request.extIn,
        ext_out: request.extOut,
        ...(request.join?.length ? { join: [...request.join] } : {}),
        ...(request.options && Object.keys(request.options).length > 0 ? { options: request.options } : {}),
        ...(request.webhookUrl ? { webhook_url: request.webhookUrl } : {}),
      };
      const { file } = unwrap(await api.POST('/api/v1/convert', { body }), clock.now());
      return { extOut: file.ext_out, urls: file.urls.map((url) => new URL(url, `${baseUrl}/`).toString()), ...(file.notes?.length ? { notes: file.notes } : {}) };
    },

    /** The output extensions for an input extension. */
    async listFormats(extIn: string): Promise<string[]> {
      return unwrap(await api.POST('/api/v1/list_ext_out', { body: { ext_in: extIn } }), clock.now()).extensions;
    },

    /** The output extensions grouped by category, a menu of popular ones, and the input's category. */
    async listFormatsByType(extIn: string): Promise<OutputFormatsByType> {
      const { Status: _status, ...formats } = unwrap(await api.POST('/api/v1/list_ext_out_by_type', { body: { ext_in: extIn } }), clock.now());
      return formats;
    },

    /** Detection from extension, size, MIME type, name and first 200 bytes (no more is read): one sentence, or the facts as JSON. */
    async detect<As extends 'text' | 'json' = 'text'>(input: FileInput | File, { mimeType, as }: DetectOptions<As> = {}): Promise<As extends 'json' ? KeyApiDetection : string> {
      const file = await sampleFile(input);
      const extension = /\.([^./\\]+)$/.exec(file.filename)?.[1]?.toLowerCase() ?? '';
      const text = (value: string) => new TextEncoder().encode(value);
      const segments = [text(extension), text(file.sizeBytes.toString(16)), text(mimeType ?? file.mimeType), text(file.filename), file.header];
      // Five segments joined by the byte 0xFE.
      const body = new Blob(segments.flatMap((segment, index) => (index ? [new Uint8Array([0xfe]), segment] : [segment])) as Uint8Array<ArrayBuffer>[]);
      const json = as === 'json';
      const result = await api.POST('/api/v1/detect_file_type', {
        body,
        bodySerializer: (blob) => blob,
        headers: { 'content-type': 'application/octet-stream', accept: json ? 'application/json' : 'text/plain' },
        parseAs: json ? 'json' : 'text',
      });
      return unwrap(result, clock.now()) as As extends 'json' ? KeyApiDetection : string;
    },
  };
}
