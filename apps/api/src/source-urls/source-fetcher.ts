import { PassThrough, Writable } from 'node:stream';
import { Inject, Injectable } from '@nestjs/common';
import { guardedFetch, type GuardedResponse, OutboundError } from '@fileshift/outbound';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/app-config.token.js';
import { UploadError, UploadErrorCode } from '../http-kit/upload.error.js';
import { FILE_STORAGE, type FileStorage } from '../storage/file-storage.js';
import { FileTooLargeError, putMetered, type StoredFile } from '../storage/metered-put.js';
import { sourceFileName } from './source-file-name.js';
import { SourceUrlError, SourceUrlErrorCode } from './source-url.error.js';

/** The first bytes detection reads. */
const HEAD_BYTES = 200;
/** What a caller turned away because every place is taken is told to wait. */
const BUSY_RETRY_AFTER_SECONDS = 5;

/** A file fetched from a source URL: its name, and what an upload's bytes are measured for. */
export interface FetchedSource extends StoredFile {
  filename: string;
}

/** One of the process's places for a fetch: taken before anything is charged, given back by its fetch or `release`. */
export interface SourceFetchPlace {
  /** Streams the file into storage under `storageKey` (nothing stays there when it fails). */
  toStorage(url: string, storageKey: string, maxBytes: number): Promise<FetchedSource>;
  /** Reads the file through, keeping its first bytes and counting the rest (detection). */
  sample(url: string, maxBytes: number): Promise<Omit<FetchedSource, 'sha256'>>;
  release(): void;
}

/**
 * Fetches the files requests name by URL (`source_url`), through the outbound guard under the operator's policy and
 * the SOURCE_URL_* limits. It runs in the API process, inside the request that pays for it (docs/source-urls.md):
 * at most `maxConcurrent` at once, so slow servers cannot take every request this process serves.
 */
@Injectable()
export class SourceFetcher {
  private running = 0;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(FILE_STORAGE) private readonly storage: FileStorage,
  ) {}

  /** Takes a place, or refuses with `source_url_busy` (503, Retry-After) when all are taken. */
  reserve(): SourceFetchPlace {
    if (this.running >= this.config.outbound.sourceUrl.maxConcurrent) {
      throw new SourceUrlError(SourceUrlErrorCode.Busy, 'This server fetches as many source URLs as it may at once; nothing was charged. Retry shortly.', undefined, BUSY_RETRY_AFTER_SECONDS);
    }
    this.running++;
    let held = true;
    const release = () => {
      if (held) this.running--;
      held = false;
    };
    const released = <T>(work: () => Promise<T>) => work().finally(release);
    return {
      toStorage: (url, storageKey, maxBytes) => released(() => this.toStorage(url, storageKey, maxBytes)),
      sample: (url, maxBytes) => released(() => this.sample(url, maxBytes)),
      release,
    };
  }

  /** How many fetches run now. */
  get active(): number {
    return this.running;
  }

  private async toStorage(url: string, storageKey: string, maxBytes: number): Promise<FetchedSource> {
    const body = new PassThrough();
    const storing = putMetered(this.storage, storageKey, body, maxBytes);
    // A fetch refused before its body (an address, a status) never touched the stream: end the store's wait too.
    const fetching = this.fetch(url, body, maxBytes).catch((error: unknown) => {
      body.destroy(error as Error);
      throw error;
    });
    const [fetched, stored] = await Promise.allSettled([fetching, storing]);
    // The store failing on its own is ours (a 500); failing because the fetch broke the stream is the fetch's story.
    if (stored.status === 'rejected' && !causedByFetch(stored.reason)) throw stored.reason;
    if (fetched.status === 'rejected') throw this.refusal(fetched.reason, maxBytes);
    if (stored.status === 'rejected') throw this.refusal(stored.reason, maxBytes);
    if (stored.value.size === 0) {
      await this.storage.delete(storageKey);
      throw emptyFile();
    }
    return { ...stored.value, filename: sourceFileName(headerOf(fetched.value, 'content-disposition'), fetched.value.url) };
  }

  private async sample(url: string, maxBytes: number): Promise<Omit<FetchedSource, 'sha256'>> {
    const head: Buffer[] = [];
    let kept = 0;
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        if (kept < HEAD_BYTES) head.push(chunk.subarray(0, HEAD_BYTES - kept));
        kept += chunk.length;
        done();
      },
    });
    const response = await this.fetch(url, sink, maxBytes).catch((error: unknown) => {
      throw this.refusal(error, maxBytes);
    });
    if (response.bytes === 0) throw emptyFile();
    return { size: response.bytes, head: Buffer.concat(head), filename: sourceFileName(headerOf(response, 'content-disposition'), response.url) };
  }

  private fetch(url: string, to: Writable, maxBytes: number): Promise<GuardedResponse> {
    const { policy, sourceUrl } = this.config.outbound;
    return guardedFetch(url, { policy, maxBytes, to, timeoutMs: sourceUrl.timeoutMs, idleTimeoutMs: sourceUrl.idleTimeoutMs, headers: { accept: '*/*' } });
  }

  private refusal(error: unknown, maxBytes: number): unknown {
    if (error instanceof OutboundError) return SourceUrlError.of(error, maxBytes);
    if (error instanceof FileTooLargeError) return SourceUrlError.tooLarge(maxBytes);
    return error;
  }
}

/** A fetch that failed destroys the stream into storage with its error, or as a premature close. */
function causedByFetch(error: unknown): boolean {
  return error instanceof OutboundError || error instanceof FileTooLargeError || (error as { code?: string }).code === 'ERR_STREAM_PREMATURE_CLOSE';
}

const emptyFile = () => new UploadError(UploadErrorCode.EmptyFile, 'The file at source_url is empty.', { field: 'source_url' });

function headerOf(response: GuardedResponse, name: string): string | undefined {
  const value = response.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
