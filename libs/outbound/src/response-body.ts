import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { OutboundError, OutboundErrorCode } from './outbound-error.js';
import type { Hop } from './send-hop.js';
import { toOutboundError } from './transport-error.js';

/** Where the body goes: a file path (removed again if the body is refused), a stream the caller owns, or memory. */
export type BodyDestination = string | Writable | undefined;

const DECODERS: Record<string, () => Transform> = {
  gzip: () => createGunzip(),
  'x-gzip': () => createGunzip(),
  deflate: () => createInflate(),
  br: () => createBrotliDecompress(),
};

const codingsOf = (header: string | undefined) =>
  (header ?? '')
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity' && coding !== 'chunked');

/**
 * The decoders that undo the response's codings, last applied first: content codings, then transfer codings
 * (Node's parser has already undone `chunked`).
 */
export function decodersFor(response: Pick<IncomingMessage, 'headers'>): Transform[] {
  const transferEncoding = response.headers['transfer-encoding'];
  const applied = [...codingsOf(response.headers['content-encoding']), ...codingsOf(transferEncoding)];
  return applied.reverse().map((coding) => {
    const decoder = DECODERS[coding];
    if (!decoder) throw new OutboundError(OutboundErrorCode.BadResponse, `The response uses an encoding this service does not read: ${coding.slice(0, 40)}`);
    return decoder();
  });
}

const tooLarge = (maxBytes: number) => new OutboundError(OutboundErrorCode.TooLarge, `The response body is larger than the limit of ${maxBytes} bytes`);

/** Counts the bytes as they will be kept (decoded) and fails the stream the moment they pass the limit. */
function byteLimit(maxBytes: number, counted: { bytes: number }): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      counted.bytes += chunk.length;
      if (counted.bytes > maxBytes) callback(tooLarge(maxBytes));
      else callback(null, chunk);
    },
  });
}

function memorySink(chunks: Buffer[]): Writable {
  return new Writable({
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk);
      callback();
    },
  });
}

export interface ReadBody {
  bytes: number;
  /** The body, when no destination was given. */
  body?: Buffer;
}

/**
 * Streams a hop's body, decoded, to its destination under `maxBytes`: refused before reading when the declared
 * length is over it, and as soon as the decoded bytes pass it whatever was declared (a decompression bomb stops at
 * the limit). Resolves only once the connection has closed cleanly.
 */
export async function readBody(hop: Hop, { maxBytes, to }: { maxBytes: number; to: BodyDestination }): Promise<ReadBody> {
  const { response } = hop;
  const declared = Number(response.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes && codingsOf(response.headers['content-encoding']).length === 0) {
    hop.destroy(tooLarge(maxBytes));
    throw tooLarge(maxBytes);
  }
  let decoders: Transform[];
  try {
    decoders = decodersFor(response);
  } catch (error) {
    hop.destroy(error as Error);
    throw error;
  }
  const counted = { bytes: 0 };
  const chunks: Buffer[] = [];
  // The pipeline owns the sink from here: it ends it on success and destroys it with the error on failure.
  const sink = to === undefined ? memorySink(chunks) : typeof to === 'string' ? createWriteStream(to) : to;
  try {
    await pipeline([response, ...decoders, byteLimit(maxBytes, counted), sink]);
    await hop.closed;
  } catch (error) {
    const failure = toOutboundError(error, { responseStarted: true });
    hop.destroy(failure);
    if (typeof to === 'string') await rm(to, { force: true });
    throw failure;
  }
  return to === undefined ? { bytes: counted.bytes, body: Buffer.concat(chunks) } : { bytes: counted.bytes };
}
