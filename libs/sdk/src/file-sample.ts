import { bytesOf, checkDeclaredSize, describeInput, type FileInput, isStream } from './file-input.js';

export const HEADER_BYTES = 200;

/** What detection reads of a file: its first 200 bytes and its size, not the rest. */
export interface FileSample {
  header: Uint8Array;
  sizeBytes: number;
  filename: string;
  createdAt: Date;
  /** A Blob's own type; empty for other data. */
  mimeType: string;
}

/**
 * The first 200 bytes and the size. A Blob is sliced (a file-backed Blob reads only those bytes); a
 * stream with a declared `sizeBytes` is read up to 200 bytes and cancelled; a stream without one is
 * read to its end to count it, keeping only the first 200 bytes.
 */
export async function sampleFile(input: FileInput | File, signal?: AbortSignal): Promise<FileSample> {
  const { data, filename, createdAt, sizeBytes: declared } = describeInput(input);
  if (isStream(data)) return { ...(await readHead(chunksOf(data), declared, signal)), filename, createdAt, mimeType: '' };
  signal?.throwIfAborted();
  if (data instanceof Blob) {
    checkDeclaredSize(declared, data.size);
    return { header: await headOf(data), sizeBytes: data.size, filename, createdAt, mimeType: data.type };
  }
  const bytes = bytesOf(data);
  checkDeclaredSize(declared, bytes.byteLength);
  return { header: bytes.slice(0, HEADER_BYTES), sizeBytes: bytes.byteLength, filename, createdAt, mimeType: '' };
}

async function headOf(blob: Blob): Promise<Uint8Array> {
  return new Uint8Array(await blob.slice(0, HEADER_BYTES).arrayBuffer());
}

/** Base64 without Node's Buffer, for browsers too. */
export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** Chunks of either kind of stream, and a way to let go of it early. */
interface Chunks {
  next(): Promise<IteratorResult<Uint8Array>>;
  /** Cancels a web stream; ends a Node stream's iteration, which destroys the stream. */
  stop(reason?: unknown): Promise<void>;
}

function chunksOf(stream: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>): Chunks {
  // Web streams are read with a reader: not every browser can iterate them.
  if ('getReader' in stream) {
    const reader = stream.getReader();
    return { next: () => reader.read() as Promise<IteratorResult<Uint8Array>>, stop: (reason) => reader.cancel(reason) };
  }
  const iterator = stream[Symbol.asyncIterator]();
  return { next: () => iterator.next(), stop: async () => void (await iterator.return?.()) };
}

async function readHead(chunks: Chunks, declared: number | undefined, signal?: AbortSignal): Promise<{ header: Uint8Array; sizeBytes: number }> {
  const header = new Uint8Array(HEADER_BYTES);
  let [filled, total, ended] = [0, 0, false];
  // An abort cancels the stream, which ends a read that waits for data.
  const onAbort = () => void chunks.stop(signal?.reason).catch(() => undefined);
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    signal?.throwIfAborted();
    for (;;) {
      if (declared !== undefined && filled === HEADER_BYTES) return { header, sizeBytes: declared };
      const chunk = await chunks.next();
      signal?.throwIfAborted();
      if (chunk.done) {
        ended = true;
        checkDeclaredSize(declared, total);
        return { header: header.slice(0, filled), sizeBytes: total };
      }
      const taken = Math.min(chunk.value.byteLength, HEADER_BYTES - filled);
      header.set(chunk.value.subarray(0, taken), filled);
      [filled, total] = [filled + taken, total + chunk.value.byteLength];
    }
  } catch (error) {
    throw signal?.aborted ? signal.reason : error;
  } finally {
    signal?.removeEventListener('abort', onAbort);
    // The rest of the stream is not needed (or the read failed): let it go.
    if (!ended) await chunks.stop().catch(() => undefined);
  }
}
