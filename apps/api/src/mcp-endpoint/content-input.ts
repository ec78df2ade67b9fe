import { Readable } from 'node:stream';
import { Inject, Injectable } from '@nestjs/common';
import { RequestValidationError } from '../errors/request-validation.error.js';
import { UploadError, UploadErrorCode } from '../http-kit/upload.error.js';
import { FILE_STORAGE, type FileStorage } from '../storage/file-storage.js';
import { putMetered, type StoredFile } from '../storage/metered-put.js';

/** The most a tool call's base64 content may decode to: larger files come by source_url (40 MiB, as an upload). */
export const MAX_CONTENT_BYTES = 10 * 1024 * 1024;
/** The JSON-RPC body that carries such content: its base64 (4/3 of it) and room for the rest of the call. */
export const MCP_BODY_LIMIT_BYTES = Math.ceil((MAX_CONTENT_BYTES * 4) / 3) + 256 * 1024;

/**
 * Standard base64 with its padding (RFC 4648). Checked without a repeated group: a pattern such as
 * `^(?:[A-Za-z0-9+/]{4})*…$` backtracks per group and overflows the stack from about 4 MiB of content.
 */
function isStandardBase64(text: string): boolean {
  if (text.length % 4 !== 0 || /[^A-Za-z0-9+/=]/.test(text)) return false;
  const padding = text.indexOf('=');
  return padding === -1 || (padding >= text.length - 2 && text.slice(padding) === '='.repeat(text.length - padding));
}

/**
 * A file sent as base64 in a tool call, stored as an upload is: into the storage key its job's input slot names,
 * measured on the way (size, SHA-256, first bytes) by the same metering every upload goes through.
 */
@Injectable()
export class ContentInputs {
  constructor(@Inject(FILE_STORAGE) private readonly storage: FileStorage) {}

  async store(field: string, base64: string, storageKey: string): Promise<StoredFile> {
    if (base64.length > Math.ceil((MAX_CONTENT_BYTES * 4) / 3) + 4) throw tooLarge();
    if (!isStandardBase64(base64)) throw RequestValidationError.of(field, 'must be standard base64 (RFC 4648, with padding)');
    const bytes = Buffer.from(base64, 'base64');
    if (bytes.length > MAX_CONTENT_BYTES) throw tooLarge();
    return putMetered(this.storage, storageKey, Readable.from([bytes]), MAX_CONTENT_BYTES);
  }

  discard(storageKey: string): Promise<void> {
    return this.storage.delete(storageKey);
  }
}

const tooLarge = () => contentTooLarge(`The content exceeds ${MAX_CONTENT_BYTES} bytes; send a larger file by source_url.`);

/** Content past MAX_CONTENT_BYTES: a 413, as an upload too large is. */
export const contentTooLarge = (message: string) => new UploadError(UploadErrorCode.TooLarge, message, { max_bytes: MAX_CONTENT_BYTES });
