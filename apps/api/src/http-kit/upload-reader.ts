import { Inject, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { cleanFileName } from './file-name.js';
import { MAX_UPLOAD_BYTES } from '../config/upload-limit.js';
import { FILE_STORAGE, type FileStorage, StorageBackendError } from '../storage/file-storage.js';
import { FileTooLargeError, putMetered, type StoredFile } from '../storage/metered-put.js';
import { UploadError, UploadErrorCode } from './upload.error.js';

/** One stored file part. `clientFilename`: the part's file name as a hint, cleaned of control characters and directories (may be empty). */
export type UploadedFile = StoredFile & { key: string; clientFilename: string };

export interface Upload {
  fields: Record<string, string>;
  /** The first file part. */
  file?: UploadedFile;
  /** Every file part taken, in order (the first is `file`). */
  files: UploadedFile[];
}

/** An upload of one file that arrived another way (a source URL, an MCP tool's content). */
export const singleFileUpload = (fields: Record<string, string>, file: UploadedFile): Upload => ({ fields, file, files: [file] });

export interface UploadOptions {
  /** Where the n-th (1-based) file part is stored: the caller decides, so the file never has to move. */
  storageKey: string | ((part: number) => string);
  fileField?: string;
  /** The most bytes of all file parts together. */
  maxBytes?: number;
  /** The most file parts taken; more is refused (default 1: later file parts are ignored). */
  maxFiles?: number;
}

/** Reads a multipart request, streaming its file parts to storage. */
@Injectable()
export class UploadReader {
  constructor(@Inject(FILE_STORAGE) private readonly storage: FileStorage) {}

  async read(request: FastifyRequest, { storageKey, fileField = 'file', maxBytes = MAX_UPLOAD_BYTES, maxFiles }: UploadOptions): Promise<Upload> {
    if (!request.isMultipart()) throw new UploadError(UploadErrorCode.NotMultipart, 'Send the file as multipart/form-data, or name it by source_url in an application/json body.');
    const upload: Upload = { fields: {}, files: [] };
    const keyOf = typeof storageKey === 'string' ? () => storageKey : storageKey;
    let taken = 0;
    try {
      for await (const part of request.parts()) {
        if (part.type === 'field') {
          upload.fields[part.fieldname] = String(part.value);
        } else if (part.fieldname === fileField && (maxFiles !== undefined || upload.files.length === 0)) {
          if (maxFiles !== undefined && upload.files.length >= maxFiles) throw tooManyFiles(maxFiles);
          const key = keyOf(upload.files.length + 1);
          // Every part counts against one limit: files that are each fine may not add up past it.
          const file = { key, clientFilename: cleanFileName(part.filename ?? ''), ...(await putMetered(this.storage, key, part.file, maxBytes - taken)) };
          taken += file.size;
          upload.files.push(file);
          upload.file ??= file;
        } else {
          part.file.resume();
        }
      }
    } catch (error) {
      await this.discard(upload);
      if (error instanceof UploadError) throw error;
      const code = (error as { code?: string }).code;
      if (code === 'FST_FILES_LIMIT' && maxFiles !== undefined) throw tooManyFiles(maxFiles);
      if (error instanceof FileTooLargeError || code === 'FST_REQ_FILE_TOO_LARGE') {
        const together = upload.files.length > 0 ? 'The files together exceed' : 'The file exceeds';
        throw new UploadError(UploadErrorCode.TooLarge, `${together} the maximum upload size of ${maxBytes} bytes.`, { max_bytes: maxBytes });
      }
      // Our own I/O failing (disk full, permissions, the object store) is ours: a 500. Anything else came from parsing
      // the client's body (Fastify's limits, or the multipart parser's plain errors such as "Unexpected end of multipart data").
      if ((error as { syscall?: string }).syscall || error instanceof StorageBackendError) throw error;
      throw new UploadError(UploadErrorCode.Malformed, 'The multipart body is malformed or has too many parts.');
    }
    return upload;
  }

  async discard(upload: Upload): Promise<void> {
    await Promise.all(upload.files.map((file) => this.storage.delete(file.key)));
  }
}

const tooManyFiles = (maxFiles: number) => new UploadError(UploadErrorCode.TooManyFiles, `At most ${maxFiles} files are taken in one job.`, { max_files: maxFiles });
