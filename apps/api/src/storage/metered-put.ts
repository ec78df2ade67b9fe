import { createHash } from 'node:crypto';
import { pipeline, Transform, type Readable } from 'node:stream';
import type { FileStorage } from './file-storage.js';

const HEAD_BYTES = 200;

/** What an upload's bytes were, measured while they streamed to storage. */
export interface StoredFile {
  size: number;
  sha256: string;
  /** The first 200 bytes, for detection. */
  head: Buffer;
}

export class FileTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`the file exceeds ${maxBytes} bytes`);
    this.name = 'FileTooLargeError';
  }
}

/**
 * Streams `source` into storage under `key` while measuring it (size, SHA-256, first bytes), and stops
 * past `maxBytes` with {@link FileTooLargeError}; the driver then leaves nothing behind. Works the same
 * for every driver, so no driver hashes on its own.
 */
export async function putMetered(storage: FileStorage, key: string, source: Readable, maxBytes: number): Promise<StoredFile> {
  const hash = createHash('sha256');
  const head: Buffer[] = [];
  let size = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      const before = size;
      size += chunk.length;
      if (size > maxBytes) return done(new FileTooLargeError(maxBytes));
      hash.update(chunk);
      if (before < HEAD_BYTES) head.push(chunk.subarray(0, HEAD_BYTES - before));
      done(null, chunk);
    },
  });
  // pipeline destroys the source with the meter (an oversized or failed upload stops being read) and passes
  // the source's own errors (a client that stops mid-body) on to the driver, which then removes what it wrote.
  await storage.put(key, pipeline(source, meter, () => undefined));
  return { size, sha256: hash.digest('hex'), head: Buffer.concat(head) };
}
