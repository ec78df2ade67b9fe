import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { SAMPLE_CELLS, SAMPLE_HEADING } from './office-samples.js';

// E-book samples and checks. FB2 and MOBI are written here by hand (no converter made them); AZW3 (KF8) is
// too large a format to write by hand, so calibre makes it from the hand-written EPUB, outside the engine.
// Outputs are read back by our own PalmDB/MOBI reader below, not by calibre.

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A FictionBook 2 as people write it: description with title and author, one section with a title and paragraphs. */
export function sampleFb2(heading = SAMPLE_HEADING): string {
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<FictionBook xmlns="http://www.gribuser.ru/xml/fictionbook/2.0" xmlns:l="http://www.w3.org/1999/xlink">\n` +
    `<description><title-info><genre>reference</genre><author><first-name>Ada</first-name><last-name>Writer</last-name></author>` +
    `<book-title>${escapeXml(heading)}</book-title><lang>en</lang></title-info></description>\n` +
    `<body><section><title><p>${escapeXml(heading)}</p></title><p>A paragraph with <emphasis>emphasis</emphasis>.</p><p>Another paragraph.</p></section></body>\n</FictionBook>\n`
  );
}

const PALMDB_HEADER_BYTES = 78;
const TEXT_RECORD_BYTES = 4096;
const NONE = 0xffffffff;

/**
 * A Mobipocket 6 book written by hand: a PalmDB of record 0 (PalmDOC header, MOBI header, full name) and
 * uncompressed text records of HTML (a heading, paragraphs, a 2×2 table), as the format's documentation describes it.
 */
export function sampleMobi(heading = SAMPLE_HEADING): Buffer {
  const table = `<table><tr><td>${SAMPLE_CELLS[0]}</td><td>${SAMPLE_CELLS[1]}</td></tr><tr><td>1</td><td>2</td></tr></table>`;
  const html = Buffer.from(`<html><head><guide></guide></head><body><h1>${escapeXml(heading)}</h1><p>A paragraph with <i>emphasis</i>.</p><p>Another paragraph.</p>${table}</body></html>`);
  const textRecords: Buffer[] = [];
  for (let offset = 0; offset < html.length; offset += TEXT_RECORD_BYTES) textRecords.push(html.subarray(offset, offset + TEXT_RECORD_BYTES));
  const title = Buffer.from(heading);
  const header = Buffer.alloc(16 + 232);
  header.writeUInt16BE(1, 0); // no compression
  header.writeUInt32BE(html.length, 4);
  header.writeUInt16BE(textRecords.length, 8);
  header.writeUInt16BE(TEXT_RECORD_BYTES, 10);
  header.write('MOBI', 16, 'latin1');
  header.writeUInt32BE(232, 20);
  header.writeUInt32BE(2, 24); // a book
  header.writeUInt32BE(65001, 28); // UTF-8
  header.writeUInt32BE(0x5eed, 32);
  header.writeUInt32BE(6, 36);
  for (let field = 40; field < 80; field += 4) header.writeUInt32BE(NONE, field); // no indexes
  header.writeUInt32BE(textRecords.length + 1, 80); // first non-book record
  header.writeUInt32BE(header.length, 84); // full name, right after the header
  header.writeUInt32BE(title.length, 88);
  header.writeUInt32BE(9, 92); // English
  header.writeUInt32BE(6, 104);
  header.writeUInt32BE(NONE, 108); // no images
  for (const field of [164, 168, 224, 232, 236, 244]) header.writeUInt32BE(NONE, field);
  header.writeUInt16BE(1, 192);
  header.writeUInt16BE(textRecords.length, 194);
  header.writeUInt32BE(1, 196);
  header.writeUInt32BE(NONE, 200);
  header.writeUInt32BE(NONE, 208);
  const record0 = Buffer.concat([header, title, Buffer.alloc(4 - (title.length % 4) + 4)]);
  const records = [record0, ...textRecords, Buffer.from([0xe9, 0x8e, 0x0d, 0x0a])]; // the end-of-file record
  const list = Buffer.alloc(records.length * 8 + 2);
  let offset = PALMDB_HEADER_BYTES + list.length;
  records.forEach((record, index) => {
    list.writeUInt32BE(offset, index * 8);
    list.writeUIntBE(index * 2, index * 8 + 5, 3);
    offset += record.length;
  });
  const palm = Buffer.alloc(PALMDB_HEADER_BYTES);
  palm.write(heading.replace(/\W/g, '_').slice(0, 31), 0, 'latin1');
  const now = Math.floor(Date.UTC(2026, 10, 1) / 1000) + 2_082_844_800; // PalmOS counts from 1904
  palm.writeUInt32BE(now, 36);
  palm.writeUInt32BE(now, 40);
  palm.write('BOOKMOBI', 60, 'latin1');
  palm.writeUInt32BE(records.length * 2, 68);
  palm.writeUInt16BE(records.length, 76);
  return Buffer.concat([palm, list, ...records]);
}

/** AZW3 from an EPUB, made by calibre's ebook-convert run directly (the format is too large to write by hand). */
export function writeAzw3Sample(epubPath: string, dir: string): string {
  const path = join(dir, 'book.azw3');
  execFileSync('ebook-convert', [epubPath, path], { stdio: 'ignore', env: { ...process.env, QT_QPA_PLATFORM: 'offscreen' } });
  return path;
}

export function writeEbookSamples(dir: string, epubPath: string): Map<string, string> {
  const fb2 = join(dir, 'book.fb2');
  writeFileSync(fb2, sampleFb2());
  const mobi = join(dir, 'book.mobi');
  writeFileSync(mobi, sampleMobi());
  return new Map([
    ['fb2', fb2],
    ['mobi', mobi],
    ['azw3', writeAzw3Sample(epubPath, dir)],
  ]);
}

export const EBOOK_TARGETS: ReadonlySet<string> = new Set(['mobi', 'azw3', 'fb2']);

/** Checks a MOBI, AZW3 or FB2 output with our own reader: the right container and version, and `marker` in its text. */
export function expectEbook(path: string, format: string, marker: string): void {
  const bytes = readFileSync(path);
  if (format === 'fb2') {
    const xml = bytes.toString('utf8');
    expect(xml).toMatch(/^(?:<\?xml[^>]*>\s*)?<FictionBook\b/);
    expect(xml).toContain(marker);
    return;
  }
  const book = readMobi(bytes);
  // MOBI 6 for .mobi; KF8 (version 8) alone for .azw3.
  expect(book.version).toBe(format === 'azw3' ? 8 : 6);
  expect(book.text).toContain(marker);
}

/** Our own reader of a Mobipocket/KF8 PalmDB: its MOBI version and the text of its text records. */
export function readMobi(bytes: Buffer): { version: number; text: string } {
  expect(bytes.subarray(60, 68).toString('latin1')).toBe('BOOKMOBI');
  const count = bytes.readUInt16BE(76);
  const offsets = Array.from({ length: count }, (_, i) => bytes.readUInt32BE(PALMDB_HEADER_BYTES + i * 8));
  const record = (i: number) => bytes.subarray(offsets[i], i + 1 < count ? offsets[i + 1] : bytes.length);
  const record0 = record(0);
  expect(record0.subarray(16, 20).toString('latin1')).toBe('MOBI');
  const compression = record0.readUInt16BE(0);
  const textRecords = record0.readUInt16BE(8);
  const headerLength = record0.readUInt32BE(20);
  const extraFlags = headerLength >= 0xe4 ? record0.readUInt16BE(0xf2) : 0;
  const parts: Buffer[] = [];
  for (let i = 1; i <= textRecords; i++) {
    const data = record(i);
    const text = data.subarray(0, data.length - trailingBytes(data, extraFlags));
    if (compression === 1) parts.push(text);
    else if (compression === 2) parts.push(palmDocInflate(text));
    else throw new Error(`MOBI compression ${compression} is not read by this check`);
  }
  return { version: record0.readUInt32BE(36), text: Buffer.concat(parts).toString('utf8') };
}

/** The bytes of trailing entries (extra data flags) at the end of a text record. */
function trailingBytes(data: Buffer, flags: number): number {
  let size = 0;
  for (let bits = flags >> 1; bits !== 0; bits >>= 1) {
    if (!(bits & 1)) continue;
    // A size written backwards: 7 bits a byte, the first byte (from the end) carrying the high bit.
    let value = 0;
    let shift = 0;
    for (let at = data.length - size - 1; at >= 0; at--) {
      const byte = data[at]!;
      value |= (byte & 0x7f) << shift;
      shift += 7;
      if (byte & 0x80 || shift >= 28) break;
    }
    size += value;
  }
  if (flags & 1) size += (data[data.length - size - 1]! & 0x3) + 1;
  return size;
}

/** PalmDOC's LZ77: literals, runs of literals, back references and space-plus-character pairs. */
function palmDocInflate(input: Buffer): Buffer {
  const out: number[] = [];
  for (let i = 0; i < input.length; ) {
    const byte = input[i++]!;
    if (byte >= 1 && byte <= 8) for (let n = 0; n < byte; n++) out.push(input[i++]!);
    else if (byte < 0x80) out.push(byte);
    else if (byte >= 0xc0) out.push(0x20, byte ^ 0x80);
    else {
      const pair = (byte << 8) | input[i++]!;
      const distance = (pair >> 3) & 0x7ff;
      for (let n = 0; n < (pair & 7) + 3; n++) out.push(out[out.length - distance]!);
    }
  }
  return Buffer.from(out);
}
