import { ConversionError } from '../../platform/conversion-error.js';
import type { EntryKind, ListedEntry } from '../../shared/archive-entry-check.js';
import type { ArchiveFormat } from './archives.descriptor.js';

// The entry check lives in shared/ (calibre checks a ZIP package with it too); the listing's readers use it with it.
export { type EntryKind, type ListedEntry, ListingCheck, RATIO_FLOOR_BYTES, tooLarge } from '../../shared/archive-entry-check.js';

const KINDS: Record<string, EntryKind> = { '-': 'file', d: 'directory', l: 'symlink', h: 'hardlink', c: 'device', b: 'device', p: 'fifo', s: 'socket' };

/**
 * One line of `bsdtar -tv --numeric-owner`: mode (10 characters and an ACL mark), links, uid, gid, size (or
 * `major,minor` of a device), date as `ls -l` writes it in the C locale, one space, the name (then ` -> target`
 * or ` link to target` for links, which we refuse whatever they point at). With --numeric-owner no field before
 * the name can hold a space, so a name cannot forge the fields before it.
 */
const ENTRY_LINE = /^(.)[-rwxsStTl?]{9}\S?\s+\d+\s+\d+\s+\d+\s+(\d+|\d+,\s*\d+)\s+[A-Z][a-z]{2}\s+\d{1,2}\s+(?:\d{1,2}:\d{2}|-?\d+) (.*)$/;
/** The last line with -vvv: what libarchive found the input to be. */
const FORMAT_LINE = /^Archive Format: (.*),\s+Compression: (.*)$/;

export function parseEntryLine(line: string): ListedEntry | undefined {
  const match = ENTRY_LINE.exec(line);
  if (!match) return undefined;
  const kind = KINDS[match[1]!] ?? 'unknown';
  return { kind, name: match[3]!, size: kind === 'file' ? Number(match[2]) : 0 };
}

export function parseFormatLine(line: string): { format: string; compression: string } | undefined {
  const match = FORMAT_LINE.exec(line);
  return match ? { format: match[1]!.trim(), compression: match[2]!.trim() } : undefined;
}

const TAR = /\b(tar|ustar|pax)\b/i;
/** What libarchive must report for each format we read: a file named .zip that is a cpio or an mtree is refused. */
const EXPECTED: Record<ArchiveFormat, { format: RegExp; compression: string; name: string }> = {
  zip: { format: /^ZIP\b/, compression: 'none', name: 'ZIP archive' },
  '7z': { format: /^7-Zip$/, compression: 'none', name: '7-Zip archive' },
  tar: { format: TAR, compression: 'none', name: 'tar archive' },
  tgz: { format: TAR, compression: 'gzip', name: 'gzip-compressed tar archive' },
  tbz2: { format: TAR, compression: 'bzip2', name: 'bzip2-compressed tar archive' },
  txz: { format: TAR, compression: 'xz', name: 'xz-compressed tar archive' },
};

export const archiveName = (format: ArchiveFormat) => EXPECTED[format].name;

/** The input is what it was claimed to be, read by libarchive (not by its name or first bytes). */
export function assertFormat(from: ArchiveFormat, found: { format: string; compression: string } | undefined): void {
  const expected = EXPECTED[from];
  if (!found) throw new ConversionError('unsupported_or_corrupt_input', `The input could not be read as a ${expected.name}.`);
  if (!expected.format.test(found.format) || found.compression !== expected.compression) {
    const compression = found.compression === 'none' ? '' : `, ${found.compression}-compressed`;
    throw new ConversionError('unsupported_or_corrupt_input', `The input is not a ${expected.name}: it reads as ${found.format}${compression}.`);
  }
}
