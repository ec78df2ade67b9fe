import type { Readable } from 'node:stream';
import { Inject, Injectable } from '@nestjs/common';
import { mimeTypeOf } from '@fileshift/formats';
import { FILE_STORAGE, type FileStorage, StoredFileMissingError } from '../storage/file-storage.js';
import type { ConversionJob } from './conversion-job.entity.js';
import { ConversionJobsRepository } from './conversion-jobs.repository.js';
import { jobOutputKey } from './job-storage-keys.js';
import { resultFilename } from './result-purchase.service.js';

/** A converted file ready to be streamed to a client. */
export interface ResultFile {
  stream: Readable;
  size: number;
  filename: string;
  mimeType: string;
}

/** The only names downloads serve: a job's random download token and an extension. */
export const DOWNLOAD_NAME = /^([A-Za-z0-9_-]{32})\.([a-z0-9]{1,20})$/;

/** Converted files by their download names, for both APIs' download routes. */
@Injectable()
export class ResultFiles {
  constructor(
    private readonly jobs: ConversionJobsRepository,
    @Inject(FILE_STORAGE) private readonly storage: FileStorage,
  ) {}

  /** The job a download name points at (looked up in the database, never as a path), with the name's extension. */
  async jobOf(name: string): Promise<{ job: ConversionJob; extension: string } | null> {
    const match = DOWNLOAD_NAME.exec(name);
    if (!match) return null;
    const job = await this.jobs.findByDownloadToken(match[1]!);
    return job ? { job, extension: match[2]! } : null;
  }

  /** The job's result, or null when storage no longer has it. */
  async open(job: ConversionJob): Promise<ResultFile | null> {
    const key = jobOutputKey(job.id, job.targetFormat);
    const size = await this.storage.size(key);
    if (size === null) return null;
    const stream = await this.storage.get(key).catch((error: unknown) => {
      if (error instanceof StoredFileMissingError) return null;
      throw error;
    });
    return stream ? { stream, size, filename: resultFilename(job), mimeType: mimeTypeOf(job.targetFormat) } : null;
  }
}
