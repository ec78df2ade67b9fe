import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { crc32 } from 'node:zlib';

const LOCAL_HEADER = 0x04034b50;
const CENTRAL_HEADER = 0x02014b50;
const END_RECORD = 0x06054b50;
/** Names are UTF-8 (general-purpose flag bit 11). */
const UTF8_NAMES = 0x0800;
const VERSION = 20;
/** Without ZIP64: sizes, offsets and the entry count must fit its fields. */
const MAX_ZIP32 = 0xffff_ffff;
const MAX_ENTRIES = 0xffff;

/**
 * Writes files into one ZIP at `zipPath`, stored (what goes in compresses its own content: a split's PDFs, a job's
 * PNG or JPEG pages), each under its name: streamed from disk twice (its CRC, then its bytes), never held in memory.
 * Files we wrote ourselves, so nothing here parses an upload. No ZIP64: the output caps are far below 4 GiB.
 */
export async function writeStoredZip(entries: ReadonlyArray<{ path: string; name: string }>, zipPath: string, modified = new Date()): Promise<void> {
  if (entries.length > MAX_ENTRIES) throw new Error(`a ZIP without ZIP64 holds at most ${MAX_ENTRIES} entries`);
  const [dosTime, dosDate] = dosDateTime(modified);
  const out = await open(zipPath, 'w', 0o644);
  try {
    const centrals: Buffer[] = [];
    let offset = 0;
    for (const entry of entries) {
      const name = Buffer.from(entry.name, 'utf8');
      const { size } = await stat(entry.path);
      let crc = 0;
      for await (const chunk of createReadStream(entry.path)) crc = crc32(chunk as Buffer, crc);
      if (size > MAX_ZIP32 || offset > MAX_ZIP32) throw new Error('the ZIP would need ZIP64');

      const local = Buffer.alloc(30);
      local.writeUInt32LE(LOCAL_HEADER, 0);
      local.writeUInt16LE(VERSION, 4);
      local.writeUInt16LE(UTF8_NAMES, 6);
      local.writeUInt16LE(0, 8); // stored
      local.writeUInt16LE(dosTime, 10);
      local.writeUInt16LE(dosDate, 12);
      local.writeUInt32LE(crc, 14);
      local.writeUInt32LE(size, 18);
      local.writeUInt32LE(size, 22);
      local.writeUInt16LE(name.length, 26);
      await out.write(Buffer.concat([local, name]));
      let copied = 0;
      for await (const chunk of createReadStream(entry.path)) {
        await out.write(chunk as Buffer);
        copied += (chunk as Buffer).length;
      }
      if (copied !== size) throw new Error(`${entry.name} changed while it was zipped`);

      const central = Buffer.alloc(46);
      central.writeUInt32LE(CENTRAL_HEADER, 0);
      central.writeUInt16LE((3 << 8) | VERSION, 4); // made by: UNIX (the attributes below), version 2.0
      central.writeUInt16LE(VERSION, 6);
      central.writeUInt16LE(UTF8_NAMES, 8);
      central.writeUInt16LE(0, 10);
      central.writeUInt16LE(dosTime, 12);
      central.writeUInt16LE(dosDate, 14);
      central.writeUInt32LE(crc, 16);
      central.writeUInt32LE(size, 20);
      central.writeUInt32LE(size, 24);
      central.writeUInt16LE(name.length, 28);
      central.writeUInt32LE(0o100644 * 0x10000, 38); // external attributes: a regular file, rw-r--r--
      central.writeUInt32LE(offset, 42);
      centrals.push(central, name);
      offset += local.length + name.length + size;
    }
    const directory = Buffer.concat(centrals);
    if (offset + directory.length > MAX_ZIP32) throw new Error('the ZIP would need ZIP64');
    const end = Buffer.alloc(22);
    end.writeUInt32LE(END_RECORD, 0);
    end.writeUInt16LE(entries.length, 8);
    end.writeUInt16LE(entries.length, 10);
    end.writeUInt32LE(directory.length, 12);
    end.writeUInt32LE(offset, 16);
    await out.write(Buffer.concat([directory, end]));
  } finally {
    await out.close();
  }
}

/** MS-DOS time and date of a moment, in local time as ZIP readers show it; 1980 at the earliest. */
function dosDateTime(moment: Date): [number, number] {
  const year = Math.max(1980, moment.getFullYear());
  const time = (moment.getHours() << 11) | (moment.getMinutes() << 5) | Math.floor(moment.getSeconds() / 2);
  const date = ((year - 1980) << 9) | ((moment.getMonth() + 1) << 5) | moment.getDate();
  return [time, date];
}
