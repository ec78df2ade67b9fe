import type { Readable } from 'node:stream';

/**
 * Where uploaded and converted files live, as a streaming key/value store: a local directory or an
 * S3-compatible bucket. Nothing outside a driver knows how keys map to places; the engines never
 * see storage (a worker copies a job's input into its scratch directory and puts the output back).
 */
export interface FileStorage {
  /**
   * Streams `body` into `key` (replacing it) without holding it in memory. When `body` fails, nothing of it is
   * left under `key` (a file stored there before stays) and the body's error is rethrown.
   */
  put(key: string, body: Readable): Promise<void>;
  /** The stored bytes; {@link StoredFileMissingError} when there is nothing under `key`. */
  get(key: string): Promise<Readable>;
  /**
   * Writes the stored bytes to the local file `path` (made or replaced): what a worker fetches into its scratch
   * directory. {@link StoredFileMissingError} when there is nothing under `key`. A local directory copies in the kernel.
   */
  copyToFile(key: string, path: string, signal?: AbortSignal): Promise<void>;
  /** Removes `key`; a missing key is not an error. */
  delete(key: string): Promise<void>;
  /** Size in bytes, or null when there is nothing under `key`. */
  size(key: string): Promise<number | null>;
  exists(key: string): Promise<boolean>;
}

export const FILE_STORAGE = Symbol('FILE_STORAGE');

export class StoredFileMissingError extends Error {
  constructor(readonly key: string) {
    super(`no stored file under ${key}`);
    this.name = 'StoredFileMissingError';
  }
}

/** The store itself failed (unreachable, refused, misconfigured): the service's fault, never the client's. */
export class StorageBackendError extends Error {
  constructor(operation: string, cause: unknown) {
    super(`storage ${operation} failed: ${cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause)}`, { cause });
    this.name = 'StorageBackendError';
  }
}
