import { open, readFile } from 'node:fs/promises';
import { ListingCheck } from '../../shared/archive-entry-check.js';
import { ConversionError } from '../../platform/conversion-error.js';
import type { EngineLimits } from '../../platform/engine-descriptor.js';
import { locateCentralDirectory, PackageError, parseCentralDirectory, ZIP_TAIL_BYTES, type ZipDirectoryEntry, zipEntryContents } from '../../shared/zip-entries.js';
import { withoutLocalFileLinks } from './docx-local-links.js';
import { mobiText, UnreadableBookText } from './mobi-text.js';
import { outsideMobiSvgImage, outsideSvgImage } from './svg-image-references.js';

/** Formats that are ZIP packages: calibre unpacks them whole before it reads a word. */
const ZIP_PACKAGES = new Set(['epub', 'docx']);
/** Mobipocket books (PalmDB): their text is read for SVG images too. */
const MOBIPOCKET = new Set(['mobi', 'azw3']);
const SVG_OUTSIDE = 'The e-book draws a picture (SVG) from a file outside the book.';
/** Where an FB2's prolog must have ended: the root element comes within these bytes or the file is refused. */
const FB2_PROLOG_BYTES = 64 * 1024;

/**
 * Checks an input before calibre sees it, and says what calibre should read: undefined for the input as it is, or
 * the bytes of a cleaned copy. A ZIP package passes the archive engine's listing check (no `..`, absolute paths
 * or deep paths, entry count, declared size and ratio) and is not encrypted; then an EPUB's SVG images must be
 * files of the book (calibre's rasterizer would open any other path of the machine: svg-image-references.ts),
 * and a DOCX loses its relationships to local files (calibre's DOCX reader would read them as pictures:
 * docx-local-links.ts). A MOBI's or AZW3's SVG images must be the book's own (`kindle:embed`); a book compressed
 * with HUFF/CDIC cannot be read here and goes to calibre unread (its sandbox holds nothing but the book). An FB2
 * declares no DOCTYPE (calibre does not expand entities today; we do not rely on it).
 */
export async function screenEbookInput(path: string, format: string, inputBytes: number, limits: EngineLimits): Promise<Buffer | undefined> {
  if (ZIP_PACKAGES.has(format)) {
    const entries = await readZipDirectory(path, inputBytes);
    const refusal = checkPackage(entries, inputBytes, limits);
    if (refusal) throw refusal;
    if (format === 'epub') checkSvgImages(await readFile(path), entries, limits);
    if (format === 'docx') return withoutLocalFileLinks(await readFile(path), limits);
  } else if (MOBIPOCKET.has(format)) {
    checkMobiSvgImages(await readFile(path), limits);
  } else if (format === 'fb2') {
    const prolog = await readHead(path, FB2_PROLOG_BYTES);
    const root = prolog.search(/<(?:\w+:)?FictionBook[\s>]/);
    if (/<!DOCTYPE/i.test(root < 0 ? prolog : prolog.slice(0, root))) throw new ConversionError('security_rejected', 'The FictionBook declares a DOCTYPE: entity declarations are not accepted.');
  }
}

/** Refuses an EPUB one of whose SVG images is not a file of the book. */
function checkSvgImages(epub: Buffer, entries: readonly ZipDirectoryEntry[], limits: EngineLimits): void {
  const names = new Set(entries.map((entry) => entry.name));
  try {
    for (const [name, content] of zipEntryContents(epub, () => true, { maxEntries: limits.maxEntries ?? 10_000, maxInflatedBytes: limits.maxExpandedBytes ?? 512 * 1024 * 1024 })) {
      if (outsideSvgImage(name, content, names) !== undefined) throw new ConversionError('security_rejected', SVG_OUTSIDE);
    }
  } catch (error) {
    if (error instanceof PackageError) throw new ConversionError('unsupported_or_corrupt_input', `The input is not a readable package: ${error.message}.`);
    throw error;
  }
}

/** Refuses a Mobipocket book one of whose SVG images is not the book's own; a text this cannot read is left to calibre. */
function checkMobiSvgImages(book: Buffer, limits: EngineLimits): void {
  let texts: string[];
  try {
    texts = mobiText(book, limits.maxExpandedBytes ?? 512 * 1024 * 1024);
  } catch (error) {
    if (error instanceof UnreadableBookText) return;
    throw error;
  }
  if (texts.some((text) => outsideMobiSvgImage(text) !== undefined)) throw new ConversionError('security_rejected', SVG_OUTSIDE);
}

/** Pure: the refusal a package's listed entries earn, if any (their messages speak of "the archive"). */
export function checkPackage(entries: readonly ZipDirectoryEntry[], inputBytes: number, limits: EngineLimits): ConversionError | undefined {
  const check = new ListingCheck(limits, inputBytes);
  for (const entry of entries) {
    if (entry.encrypted) return new ConversionError('security_rejected', 'The e-book is encrypted (DRM or a password): it cannot be converted.');
    const refusal = check.add({ kind: entry.name.endsWith('/') ? 'directory' : 'file', name: entry.name, size: entry.size });
    if (refusal) return refusal;
  }
  return undefined;
}

async function readZipDirectory(path: string, inputBytes: number): Promise<ZipDirectoryEntry[]> {
  const file = await open(path, 'r');
  try {
    const tailBytes = Math.min(inputBytes, ZIP_TAIL_BYTES);
    const tail = Buffer.alloc(tailBytes);
    await file.read(tail, 0, tailBytes, inputBytes - tailBytes);
    const location = locateCentralDirectory(tail);
    if (location.offset + location.size > inputBytes) throw new PackageError('its central directory is damaged');
    const directory = Buffer.alloc(location.size);
    await file.read(directory, 0, location.size, location.offset);
    return parseCentralDirectory(directory, location.entries);
  } catch (error) {
    if (error instanceof PackageError) throw new ConversionError('unsupported_or_corrupt_input', `The input is not a readable package: ${error.message}.`);
    throw error;
  } finally {
    await file.close();
  }
}

async function readHead(path: string, bytes: number): Promise<string> {
  const file = await open(path, 'r');
  try {
    const head = Buffer.alloc(bytes);
    const { bytesRead } = await file.read(head, 0, bytes, 0);
    const read = head.subarray(0, bytesRead);
    // FB2 is UTF-8 or a one-byte code page (ASCII markup either way), or UTF-16 with its byte order mark.
    if (read[0] === 0xff && read[1] === 0xfe) return read.toString('utf16le');
    if (read[0] === 0xfe && read[1] === 0xff) return Buffer.from(read.subarray(0, read.length & ~1)).swap16().toString('utf16le');
    return read.toString('utf8');
  } finally {
    await file.close();
  }
}
