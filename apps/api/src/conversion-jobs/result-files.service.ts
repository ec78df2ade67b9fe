import type { Readable } from 'node:stream';
import { Inject, Injectable } from '@nestjs/common';
import { FILE_STORAGE, type FileStorage, StoredFileMissingError } from '../storage/file-storage.js';
import type { ConversionJob } from './conversion-job.entity.js';
import { ConversionJobsRepository } from './conversion-jobs.repository.js';
import type { ResultDownload } from './result-download.js';

/** A converted file ready to be streamed to a client. */
export interface ResultFile {
  stream: Readable;
  size: number;
  filename: string;
  mimeType: string;
}

/** The only names downloads serve: a job's random download token, optionally a part number, and an extension. */
export const DOWNLOAD_NAME = /^([A-Za-z0-9_-]{32})(?:-([1-9]\d{0,4}))?\.([a-z0-9]{1,20})$/;

/** Converted files by their download names, for both APIs' download routes. */
@Injectable()
export class ResultFiles {
  constructor(
    private readonly jobs: ConversionJobsRepository,
    @Inject(FILE_STORAGE) private readonly storage: FileStorage,
  ) {}

  /** The job a download name points at (looked up in the database, never as a path), with the name's part and extension. */
  async jobOf(name: string): Promise<{ job: ConversionJob; part?: number; extension: string } | null> {
    const match = DOWNLOAD_NAME.exec(name);
    if (!match) return null;
    const job = await this.jobs.findByDownloadToken(match[1]!);
    return job ? { job, part: match[2] ? Number(match[2]) : undefined, extension: match[3]! } : null;
  }

  /** The file, or null when storage no longer has it. */
  async open(download: ResultDownload): Promise<ResultFile | null> {
    const size = await this.storage.size(download.key);
    if (size === null) return null;
    const stream = await this.storage.get(download.key).catch((error: unknown) => {
      if (error instanceof StoredFileMissingError) return null;
      throw error;
    });
    return stream ? { stream, size, filename: download.filename, mimeType: download.mimeType } : null;
  }

  async exists(download: ResultDownload): Promise<boolean> {
    return this.storage.exists(download.key);
  }
}
