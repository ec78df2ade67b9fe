const PALMDB_HEADER_BYTES = 78;
const NO_COMPRESSION = 1;
const PALMDOC = 2;
/** Where a joint MOBI 6 + KF8 file starts its KF8 part: the record after one holding exactly this. */
const BOUNDARY = Buffer.from('BOUNDARY', 'latin1');

/** A MOBI or AZW3 whose text cannot be read here: HUFF/CDIC compression, or records that do not add up. */
export class UnreadableBookText extends Error {}

/**
 * Pure: the text of a Mobipocket book (MOBI 6, KF8 alone as AZW3, or both joined), each part's text records
 * decompressed and joined — the HTML (and, in KF8, the CSS and SVG flows) calibre reads. PalmDOC and uncompressed
 * books only; HUFF/CDIC throws UnreadableBookText. `maxBytes` caps what the text may inflate to.
 */
export function mobiText(book: Buffer, maxBytes: number): string[] {
  const records = recordsOf(book);
  const parts = [0];
  const boundary = records.findIndex((record) => record.equals(BOUNDARY));
  if (boundary >= 0 && boundary + 1 < records.length) parts.push(boundary + 1);
  let total = 0;
  return parts.map((first) => {
    const header = records[first]!;
    if (header.length < 16) throw new UnreadableBookText('record 0 is too short');
    const compression = header.readUInt16BE(0);
    const textRecords = header.readUInt16BE(8);
    const headerLength = header.length >= 24 && header.toString('latin1', 16, 20) === 'MOBI' ? header.readUInt32BE(20) : 0;
    const extraFlags = headerLength >= 0xe4 && header.length >= 0xf4 ? header.readUInt16BE(0xf2) : 0;
    if (compression !== NO_COMPRESSION && compression !== PALMDOC) throw new UnreadableBookText(`compression ${compression}`);
    if (first + textRecords >= records.length) throw new UnreadableBookText('its text records are missing');
    const texts: Buffer[] = [];
    for (let i = first + 1; i <= first + textRecords; i++) {
      const record = records[i]!;
      const data = record.subarray(0, Math.max(0, record.length - trailingBytes(record, extraFlags)));
      const text = compression === PALMDOC ? palmDocInflate(data) : data;
      total += text.length;
      if (total > maxBytes) throw new UnreadableBookText(`its text inflates past ${maxBytes} bytes`);
      texts.push(text);
    }
    return Buffer.concat(texts).toString('latin1');
  });
}

function recordsOf(book: Buffer): Buffer[] {
  if (book.length < PALMDB_HEADER_BYTES) throw new UnreadableBookText('not a PalmDB');
  const count = book.readUInt16BE(76);
  if (PALMDB_HEADER_BYTES + count * 8 > book.length) throw new UnreadableBookText('its record list is damaged');
  const offsets = Array.from({ length: count }, (_, i) => book.readUInt32BE(PALMDB_HEADER_BYTES + i * 8));
  return offsets.map((offset, i) => {
    const end = i + 1 < count ? offsets[i + 1]! : book.length;
    if (offset > end || end > book.length) throw new UnreadableBookText('its records overlap');
    return book.subarray(offset, end);
  });
}

/** The bytes of trailing entries (the MOBI header's extra data flags) at the end of a text record. */
function trailingBytes(record: Buffer, flags: number): number {
  let size = 0;
  for (let bits = flags >> 1; bits !== 0; bits >>= 1) {
    if (!(bits & 1)) continue;
    // A size written backwards, 7 bits a byte; the byte with the high bit set ends it.
    let value = 0;
    let shift = 0;
    for (let at = record.length - size - 1; at >= 0; at--) {
      const byte = record[at]!;
      value |= (byte & 0x7f) << shift;
      shift += 7;
      if (byte & 0x80 || shift >= 28) break;
    }
    size += value;
  }
  if (flags & 1 && record.length > size) size += (record[record.length - size - 1]! & 0x3) + 1;
  return Math.min(size, record.length);
}

/** PalmDOC's LZ77: literals, runs of literals, back references, space-plus-character pairs. */
function palmDocInflate(input: Buffer): Buffer {
  const out: number[] = [];
  for (let i = 0; i < input.length; ) {
    const byte = input[i++]!;
    if (byte >= 1 && byte <= 8) for (let n = 0; n < byte && i < input.length; n++) out.push(input[i++]!);
    else if (byte < 0x80) out.push(byte);
    else if (byte >= 0xc0) out.push(0x20, byte ^ 0x80);
    else {
      const pair = (byte << 8) | (input[i++] ?? 0);
      const distance = (pair >> 3) & 0x7ff;
      if (distance === 0 || distance > out.length) break;
      for (let n = 0; n < (pair & 7) + 3; n++) out.push(out[out.length - distance]!);
    }
  }
  return Buffer.from(out);
}
