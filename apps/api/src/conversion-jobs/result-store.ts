import type { Readable } from 'node:stream';
import { Inject, Injectable } from '@nestjs/common';
import { FILE_STORAGE, type FileStorage, StoredFileMissingError } from '../storage/file-storage.js';
import type { ResultFile } from './result-files.js';

/** A result file ready to be streamed to a client. */
export interface OpenedResult {
  stream: Readable;
  size: number;
  filename: string;
  mimeType: string;
}

/** The stored files of results. */
@Injectable()
export class ResultStore {
  constructor(@Inject(FILE_STORAGE) private readonly storage: FileStorage) {}

  /** The file, or null when storage no longer has it. */
  async open(file: ResultFile): Promise<OpenedResult | null> {
    const size = await this.storage.size(file.key);
    if (size === null) return null;
    const stream = await this.storage.get(file.key).catch((error: unknown) => {
      if (error instanceof StoredFileMissingError) return null;
      throw error;
    });
    return stream ? { stream, size, filename: file.filename, mimeType: file.mimeType } : null;
  }

  stored(file: ResultFile): Promise<boolean> {
    return this.storage.exists(file.key);
  }
}
