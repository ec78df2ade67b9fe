import { inflateRawSync } from 'node:zlib';

/** Thrown when a package cannot be read (not a ZIP, damaged, encrypted, or past our limits). */
export class PackageError extends Error {}

export interface ZipLimits {
  maxEntries: number;
  /** The most bytes all read entries may inflate to (a bomb stops here, not at the headers' word). */
  maxInflatedBytes: number;
}

/**
 * Pure: the named entries of a ZIP package (an OOXML file), read from its central directory. Stored and
 * deflated entries only; encrypted ones are refused; every entry inflates under a cap shared by all.
 */
export function readZipEntries(zip: Buffer, wanted: (name: string) => boolean, limits: ZipLimits): Map<string, Buffer> {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0 || end + 22 > zip.length) throw new PackageError('it is not a ZIP package (no central directory)');
  const count = zip.readUInt16LE(end + 10);
  if (count > limits.maxEntries) throw new PackageError(`it holds more than ${limits.maxEntries} entries`);
  let offset = zip.readUInt32LE(end + 16);
  const entries = new Map<string, Buffer>();
  let inflated = 0;
  for (let i = 0; i < count; i++) {
    if (offset + 46 > zip.length || zip.readUInt32LE(offset) !== 0x02014b50) throw new PackageError('its central directory is damaged');
    const flags = zip.readUInt16LE(offset + 8);
    const method = zip.readUInt16LE(offset + 10);
    const compressedSize = zip.readUInt32LE(offset + 20);
    const nameLength = zip.readUInt16LE(offset + 28);
    const extraLength = zip.readUInt16LE(offset + 30);
    const commentLength = zip.readUInt16LE(offset + 32);
    const local = zip.readUInt32LE(offset + 42);
    const name = zip.subarray(offset + 46, offset + 46 + nameLength).toString('utf8');
    offset += 46 + nameLength + extraLength + commentLength;
    if (!wanted(name)) continue;
    if (flags & 0x1) throw new PackageError('it is encrypted');
    if (local + 30 > zip.length || zip.readUInt32LE(local) !== 0x04034b50) throw new PackageError('an entry is damaged');
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const data = zip.subarray(start, start + compressedSize);
    const remaining = limits.maxInflatedBytes - inflated;
    let content: Buffer;
    if (method === 0) content = Buffer.from(data);
    else if (method === 8) {
      try {
        content = inflateRawSync(data, { maxOutputLength: Math.max(1, remaining) });
      } catch (error) {
        throw new PackageError((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' ? `it expands past ${limits.maxInflatedBytes} bytes` : 'an entry is damaged');
      }
    } else throw new PackageError(`an entry uses compression method ${method}`);
    inflated += content.length;
    if (inflated > limits.maxInflatedBytes) throw new PackageError(`it expands past ${limits.maxInflatedBytes} bytes`);
    entries.set(name, content);
  }
  return entries;
}
