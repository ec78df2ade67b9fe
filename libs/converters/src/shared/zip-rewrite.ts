import { crc32, deflateRawSync } from 'node:zlib';
import { locateCentralDirectory, PackageError, ZIP_TAIL_BYTES } from './zip-entries.js';

const LOCAL_HEADER = 0x04034b50;
const CENTRAL_HEADER = 0x02014b50;
const END_RECORD = 0x06054b50;
/** General-purpose flag bit 3: sizes and CRC follow the data in a descriptor. */
const DATA_DESCRIPTOR = 0x8;

interface CentralRecord {
  name: string;
  record: Buffer;
  localOffset: number;
}

/**
 * Pure: a copy of a ZIP package with some entries' contents replaced (deflated anew); every other entry is
 * copied byte for byte, local record and central record alike, at its new offset. The archive comment is
 * dropped. Entries whose local records overlap or lie outside the file are refused (no package writer makes
 * them).
 */
export function replaceZipEntries(zip: Buffer, replacements: ReadonlyMap<string, Buffer>): Buffer {
  const location = locateCentralDirectory(zip.subarray(Math.max(0, zip.length - ZIP_TAIL_BYTES)));
  if (location.offset + location.size > zip.length) throw new PackageError('its central directory is damaged');
  const records = centralRecords(zip.subarray(location.offset, location.offset + location.size), location.entries);
  // A local record runs from its header to the next one (its data descriptor included) or to the directory.
  const starts = records.map((record) => record.localOffset).sort((a, b) => a - b);
  if (starts.some((start, i) => i > 0 && start === starts[i - 1]) || (starts.at(-1) ?? 0) >= Math.max(location.offset, 1)) throw new PackageError('its entries overlap');
  const endOf = new Map(starts.map((start, i) => [start, starts[i + 1] ?? location.offset]));

  const locals: Buffer[] = [];
  const centrals = new Map<CentralRecord, Buffer>();
  let offset = 0;
  for (const entry of [...records].sort((a, b) => a.localOffset - b.localOffset)) {
    if (zip.readUInt32LE(entry.localOffset) !== LOCAL_HEADER) throw new PackageError('an entry is damaged');
    const central = Buffer.from(entry.record);
    central.writeUInt32LE(offset, 42);
    const replacement = replacements.get(entry.name);
    const local = replacement ? replacedLocalRecord(zip, entry, central, replacement) : zip.subarray(entry.localOffset, endOf.get(entry.localOffset));
    locals.push(local);
    centrals.set(entry, central);
    offset += local.length;
  }
  // The directory keeps its own order.
  const directory = Buffer.concat(records.map((record) => centrals.get(record)!));
  const end = Buffer.alloc(22);
  end.writeUInt32LE(END_RECORD, 0);
  end.writeUInt16LE(records.length, 8);
  end.writeUInt16LE(records.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** A new local record holding `content`, deflated; `central` (the entry's central record) is updated to match. */
function replacedLocalRecord(zip: Buffer, entry: CentralRecord, central: Buffer, content: Buffer): Buffer {
  const data = deflateRawSync(content);
  const checksum = crc32(content);
  const flags = central.readUInt16LE(8) & ~DATA_DESCRIPTOR;
  central.writeUInt16LE(flags, 8);
  central.writeUInt16LE(8, 10);
  central.writeUInt32LE(checksum, 16);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(content.length, 24);
  const name = Buffer.from(entry.name, 'utf8');
  const header = Buffer.alloc(30);
  header.writeUInt32LE(LOCAL_HEADER, 0);
  header.writeUInt16LE(20, 4);
  header.writeUInt16LE(flags, 6);
  header.writeUInt16LE(8, 8);
  // Modification time and date as the original local header had them.
  header.writeUInt32LE(zip.readUInt32LE(entry.localOffset + 10), 10);
  header.writeUInt32LE(checksum, 14);
  header.writeUInt32LE(data.length, 18);
  header.writeUInt32LE(content.length, 22);
  header.writeUInt16LE(name.length, 26);
  header.writeUInt16LE(0, 28);
  return Buffer.concat([header, name, data]);
}

/** The central directory's records, each as its bytes, with its name and local header offset. */
function centralRecords(directory: Buffer, entries: number): CentralRecord[] {
  const records: CentralRecord[] = [];
  let offset = 0;
  for (let i = 0; i < entries; i++) {
    if (offset + 46 > directory.length || directory.readUInt32LE(offset) !== CENTRAL_HEADER) throw new PackageError('its central directory is damaged');
    const nameLength = directory.readUInt16LE(offset + 28);
    const length = 46 + nameLength + directory.readUInt16LE(offset + 30) + directory.readUInt16LE(offset + 32);
    if (offset + length > directory.length) throw new PackageError('its central directory is damaged');
    records.push({
      name: directory.subarray(offset + 46, offset + 46 + nameLength).toString('utf8'),
      record: directory.subarray(offset, offset + length),
      localOffset: directory.readUInt32LE(offset + 42),
    });
    offset += length;
  }
  return records;
}
