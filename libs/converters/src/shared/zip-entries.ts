import { inflateRawSync } from 'node:zlib';

/** Thrown when a package cannot be read (not a ZIP, damaged, encrypted, or past our limits). */
export class PackageError extends Error {}

/** Pure: the failure a package's refusal is: past our limits, refused for safety, or unreadable. */
export function packageFailure(error: PackageError): 'file_too_large' | 'security_rejected' | 'unsupported_or_corrupt_input' {
  if (/expands past|more than \d+ entries/.test(error.message)) return 'file_too_large';
  return /encrypted|DOCTYPE/.test(error.message) ? 'security_rejected' : 'unsupported_or_corrupt_input';
}

export interface ZipLimits {
  maxEntries: number;
  /** The most bytes all read entries may inflate to (a bomb stops here, not at the headers' word). */
  maxInflatedBytes: number;
}

/** Where a ZIP's central directory is, from its end record. */
export interface CentralDirectoryLocation {
  entries: number;
  offset: number;
  size: number;
}

/** One entry as the central directory declares it (sizes are the headers' word, not a measurement). */
export interface ZipDirectoryEntry {
  name: string;
  encrypted: boolean;
  method: number;
  compressedSize: number;
  size: number;
  localOffset: number;
}

const END_RECORD = Buffer.from([0x50, 0x4b, 0x05, 0x06]);
const END_RECORD_BYTES = 22;
/** The end record and the longest comment it may carry: a ZIP's directory is found within its last bytes. */
export const ZIP_TAIL_BYTES = END_RECORD_BYTES + 0xffff;

/**
 * Pure: the central directory's place, from the last bytes of a ZIP (`tail`, at most ZIP_TAIL_BYTES). ZIP64
 * directories are refused: no package within our limits needs one.
 */
export function locateCentralDirectory(tail: Buffer): CentralDirectoryLocation {
  const end = tail.lastIndexOf(END_RECORD);
  if (end < 0 || end + END_RECORD_BYTES > tail.length) throw new PackageError('it is not a ZIP package (no central directory)');
  const location = { entries: tail.readUInt16LE(end + 10), size: tail.readUInt32LE(end + 12), offset: tail.readUInt32LE(end + 16) };
  if (location.entries === 0xffff || location.offset === 0xffffffff || location.size === 0xffffffff) throw new PackageError('it is a ZIP64 package');
  return location;
}

/** Pure: the entries of a central directory (`directory` starts at its first record). */
export function parseCentralDirectory(directory: Buffer, entries: number): ZipDirectoryEntry[] {
  const listed: ZipDirectoryEntry[] = [];
  let offset = 0;
  for (let i = 0; i < entries; i++) {
    if (offset + 46 > directory.length || directory.readUInt32LE(offset) !== 0x02014b50) throw new PackageError('its central directory is damaged');
    const nameLength = directory.readUInt16LE(offset + 28);
    listed.push({
      name: directory.subarray(offset + 46, offset + 46 + nameLength).toString('utf8'),
      encrypted: (directory.readUInt16LE(offset + 8) & 0x1) !== 0,
      method: directory.readUInt16LE(offset + 10),
      compressedSize: directory.readUInt32LE(offset + 20),
      size: directory.readUInt32LE(offset + 24),
      localOffset: directory.readUInt32LE(offset + 42),
    });
    offset += 46 + nameLength + directory.readUInt16LE(offset + 30) + directory.readUInt16LE(offset + 32);
  }
  return listed;
}

/**
 * Pure: the named entries of a ZIP package (an OOXML file), read from its central directory. Stored and
 * deflated entries only; encrypted ones are refused; every entry inflates under a cap shared by all.
 */
export function readZipEntries(zip: Buffer, wanted: (name: string) => boolean, limits: ZipLimits): Map<string, Buffer> {
  return new Map(zipEntryContents(zip, wanted, limits));
}

/** Pure: readZipEntries one entry at a time, in directory order (a caller that looks at each once holds one in memory). */
export function* zipEntryContents(zip: Buffer, wanted: (name: string) => boolean, limits: ZipLimits): Generator<[string, Buffer]> {
  const location = locateCentralDirectory(zip.subarray(Math.max(0, zip.length - ZIP_TAIL_BYTES)));
  if (location.entries > limits.maxEntries) throw new PackageError(`it holds more than ${limits.maxEntries} entries`);
  let inflated = 0;
  for (const entry of parseCentralDirectory(zip.subarray(location.offset), location.entries)) {
    if (!wanted(entry.name)) continue;
    if (entry.encrypted) throw new PackageError('it is encrypted');
    const local = entry.localOffset;
    if (local + 30 > zip.length || zip.readUInt32LE(local) !== 0x04034b50) throw new PackageError('an entry is damaged');
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const data = zip.subarray(start, start + entry.compressedSize);
    const remaining = limits.maxInflatedBytes - inflated;
    let content: Buffer;
    if (entry.method === 0) content = Buffer.from(data);
    else if (entry.method === 8) {
      try {
        content = inflateRawSync(data, { maxOutputLength: Math.max(1, remaining) });
      } catch (error) {
        throw new PackageError((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' ? `it expands past ${limits.maxInflatedBytes} bytes` : 'an entry is damaged');
      }
    } else throw new PackageError(`an entry uses compression method ${entry.method}`);
    inflated += content.length;
    if (inflated > limits.maxInflatedBytes) throw new PackageError(`it expands past ${limits.maxInflatedBytes} bytes`);
    yield [entry.name, content];
  }
}
