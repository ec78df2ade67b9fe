import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ApiErrorCode, ApiErrorException } from '../http/api-error.exception.js';
import { MAX_UPLOAD_BYTES } from '../payments/pricing.js';
import { FILE_STORAGE, type FileStorage, FileTooLargeError, type StoredFile } from '../storage/file-storage.js';

export interface Upload {
  fields: Record<string, string>;
  /** `clientFilename`: the part's filename, as the client sent it (may be empty). */
  file?: StoredFile & { key: string; clientFilename: string };
}

export interface UploadOptions {
  fileField?: string;
  maxBytes?: number;
}

/** Reads a multipart request, streaming its one file part to storage under a temporary key. */
@Injectable()
export class UploadReader {
  constructor(@Inject(FILE_STORAGE) private readonly storage: FileStorage) {}

  async read(request: FastifyRequest, { fileField = 'file', maxBytes = MAX_UPLOAD_BYTES }: UploadOptions = {}): Promise<Upload> {
    if (!request.isMultipart()) {
      throw new ApiErrorException(415, ApiErrorCode.UnsupportedMediaType, 'Send the request as multipart/form-data.');
    }
    const upload: Upload = { fields: {} };
    try {
      for await (const part of request.parts()) {
        if (part.type === 'field') {
          upload.fields[part.fieldname] = String(part.value);
        } else if (part.fieldname === fileField && !upload.file) {
          const key = `uploads/${randomBytes(16).toString('hex')}`;
          upload.file = { key, clientFilename: part.filename ?? '', ...(await this.storage.write(key, part.file, maxBytes)) };
        } else {
          part.file.resume();
        }
      }
    } catch (error) {
      await this.discard(upload);
      const code = (error as { code?: string }).code;
      if (error instanceof FileTooLargeError || code === 'FST_REQ_FILE_TOO_LARGE') {
        throw new ApiErrorException(413, ApiErrorCode.PayloadTooLarge, `The file exceeds the maximum upload size of ${maxBytes} bytes.`);
      }
      // Our own I/O failing (disk full, permissions) is ours: a 500. Anything else came from parsing the client's
      // body (Fastify's limits, or the multipart parser's plain errors such as "Unexpected end of multipart data").
      if ((error as { syscall?: string }).syscall) throw error;
      throw new ApiErrorException(400, ApiErrorCode.BadRequest, `The multipart body is malformed or has too many parts (${(error as Error).message}).`);
    }
    return upload;
  }

  async discard(upload: Upload): Promise<void> {
    if (upload.file) await this.storage.delete(upload.file.key);
  }
}
