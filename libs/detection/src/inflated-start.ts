import { constants, inflateRawSync } from 'node:zlib';

/**
 * As much of a cut deflate stream as the header holds, inflated (at most 4 KiB); empty when the bytes
 * are no deflate stream. A ZIP entry or a gzip member shows its first few hundred bytes of content this way.
 */
export function inflatedStart(data: Uint8Array): Uint8Array {
  if (data.length === 0) return new Uint8Array(0);
  try {
    return inflateRawSync(data, { finishFlush: constants.Z_SYNC_FLUSH, maxOutputLength: 4096 });
  } catch {
    return new Uint8Array(0);
  }
}
