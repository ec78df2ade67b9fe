import type { Readable } from 'node:stream';

export interface StoredFile {
  size: number;
  sha256: string;
  /** The first bytes, for detection. */
  head: Buffer;
}

export class FileTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`the file exceeds ${maxBytes} bytes`);
  }
}

/**
 * Where uploaded and converted files live. Local directory now; an S3-compatible store can
 * implement the same interface (materialising files for the engines in `localPath`).
 */
export interface FileStorage {
  /** Streams `source` into `key`, never holding it whole; stops and removes it past `maxBytes`. */
  write(key: string, source: Readable, maxBytes: number): Promise<StoredFile>;
  read(key: string): Readable;
  size(key: string): Promise<number | null>;
  move(from: string, to: string): Promise<void>;
  copy(from: string, to: string): Promise<void>;
  delete(key: string): Promise<void>;
  /** A path the conversion engines can read or write directly. */
  localPath(key: string): Promise<string>;
}

export const FILE_STORAGE = Symbol('FILE_STORAGE');
