import { Inject, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { cleanFileName } from './file-name.js';
import { MAX_UPLOAD_BYTES } from '../config/upload-limit.js';
import { FILE_STORAGE, type FileStorage, StorageBackendError } from '../storage/file-storage.js';
import { FileTooLargeError, putMetered, type StoredFile } from '../storage/metered-put.js';
import { UploadError, UploadErrorCode } from './upload.error.js';

export interface Upload {
  fields: Record<string, string>;
  /** `clientFilename`: the part's file name as a hint, cleaned of control characters and directories (may be empty). */
  file?: StoredFile & { key: string; clientFilename: string };
}

export interface UploadOptions {
  /** Where the file part is stored: the caller decides, so the file never has to move. */
  storageKey: string;
  fileField?: string;
  maxBytes?: number;
}

/** Reads a multipart request, streaming its one file part to storage. */
@Injectable()
export class UploadReader {
  constructor(@Inject(FILE_STORAGE) private readonly storage: FileStorage) {}

  async read(request: FastifyRequest, { storageKey, fileField = 'file', maxBytes = MAX_UPLOAD_BYTES }: UploadOptions): Promise<Upload> {
    if (!request.isMultipart()) throw new UploadError(UploadErrorCode.NotMultipart, 'Send the file as multipart/form-data, or name it by source_url in an application/json body.');
    const upload: Upload = { fields: {} };
    try {
      for await (const part of request.parts()) {
        if (part.type === 'field') {
          upload.fields[part.fieldname] = String(part.value);
        } else if (part.fieldname === fileField && !upload.file) {
          upload.file = { key: storageKey, clientFilename: cleanFileName(part.filename ?? ''), ...(await putMetered(this.storage, storageKey, part.file, maxBytes)) };
        } else {
          part.file.resume();
        }
      }
    } catch (error) {
      await this.discard(upload);
      const code = (error as { code?: string }).code;
      if (error instanceof FileTooLargeError || code === 'FST_REQ_FILE_TOO_LARGE') {
        throw new UploadError(UploadErrorCode.TooLarge, `The file exceeds the maximum upload size of ${maxBytes} bytes.`, { max_bytes: maxBytes });
      }
      // Our own I/O failing (disk full, permissions, the object store) is ours: a 500. Anything else came from parsing
      // the client's body (Fastify's limits, or the multipart parser's plain errors such as "Unexpected end of multipart data").
      if ((error as { syscall?: string }).syscall || error instanceof StorageBackendError) throw error;
      throw new UploadError(UploadErrorCode.Malformed, 'The multipart body is malformed or has too many parts.');
    }
    return upload;
  }

  async discard(upload: Upload): Promise<void> {
    if (upload.file) await this.storage.delete(upload.file.key);
  }
}
