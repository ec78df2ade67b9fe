import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FileDigest } from '../conversion-job.entity.js';

/**
 * A file read as a stream that hashes what flows through it: a result is hashed on its way into storage, not read
 * twice. `digest()` is the whole file's once the stream has ended; a read error fails the stream.
 */
export function readDigesting(path: string): { stream: Readable; digest: () => FileDigest } {
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
