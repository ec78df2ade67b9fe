import { createHash } from 'node:crypto';
import { createReadStream, readFileSync, statSync } from 'node:fs';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FileDigest } from '../conversion-job.entity.js';

/**
 * Files up to this size (a thumbnail, a page of text) are read at once, in one synchronous call: a few µs, where
 * streaming one takes several thread-pool round trips of about 50 µs each, more than a small image's conversion.
 */
const SMALL_FILE_BYTES = 1024 * 1024;

/**
 * A file read as a stream that hashes what flows through it: a result is hashed on its way into storage, not read
 * twice. `digest()` is the whole file's once the stream has ended; a read error fails the stream. A small file is read
 * at once.
 */
export function readDigesting(path: string): { stream: Readable; digest: () => FileDigest } {
  const small = readSmall(path);
  if (small) {
    const digest = { sha256: createHash('sha256').update(small).digest('hex'), sizeBytes: small.length };
    return { stream: Readable.from([small]), digest: () => digest };
  }
  const hash = createHash('sha256');
  let sizeBytes = 0;
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      sizeBytes += chunk.length;
      done(null, chunk);
    },
  });
  // The failure reaches the reader through `stream`, which pipeline destroys with it.
  pipeline(createReadStream(path), stream).catch(() => undefined);
  return { stream, digest: () => ({ sha256: hash.digest('hex'), sizeBytes }) };
}

/** The SHA-256 and size of a file on disk. */
export async function digestOf(path: string): Promise<FileDigest> {
  const { stream, digest } = readDigesting(path);
  for await (const _ of stream);
  return digest();
}

/** The file's bytes when it is small; undefined when it is larger or cannot be read now (the stream then says why). */
function readSmall(path: string): Buffer | undefined {
  try {
    return statSync(path).size <= SMALL_FILE_BYTES ? readFileSync(path) : undefined;
  } catch {
    return undefined;
  }
}
