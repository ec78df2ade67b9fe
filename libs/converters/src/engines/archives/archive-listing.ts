import { ConversionError } from '../../platform/conversion-error.js';
import type { ArchiveFormat } from './archives.descriptor.js';
import type { EngineLimits } from '../../platform/engine-descriptor.js';

/** Kinds of archive entries as `bsdtar -tv` shows them (the first letter of the mode). */
export type EntryKind = 'file' | 'directory' | 'symlink' | 'hardlink' | 'device' | 'fifo' | 'socket' | 'unknown';

export interface ListedEntry {
  kind: EntryKind;
  /** As bsdtar prints it: non-printable characters escaped (`\n`, `\ooo`), a backslash doubled. */
  name: string;
  /** Declared by the archive's headers; 0 for anything but a regular file. */
  size: number;
}

const KINDS: Record<string, EntryKind> = { '-': 'file', d: 'directory', l: 'symlink', h: 'hardlink', c: 'device', b: 'device', p: 'fifo', s: 'socket' };
const REFUSED_KINDS: Record<Exclude<EntryKind, 'file' | 'directory'>, string> = {
  symlink: 'a symbolic link',
  hardlink: 'a hard link',
  device: 'a device file',
  fifo: 'a FIFO (named pipe)',
  socket: 'a socket',
  unknown: 'an entry of an unknown type',
};

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

/** Below this expanded size the ratio is not checked: a small archive of repetitive text compresses well and harms no one. */
export const RATIO_FLOOR_BYTES = 16 * 1024 * 1024;

/**
 * Checks the entries of a listing as they come, before anything is extracted: refuses links, devices, FIFOs,
 * sockets, absolute paths, `..` and paths too deep (security_rejected), too many entries or too many bytes
 * (file_too_large), and a bomb: declared bytes past the ratio (security_rejected). Messages number the entry
 * and never quote its name.
 */
export class ListingCheck {
  entries = 0;
  declaredBytes = 0;

  constructor(
    private readonly limits: EngineLimits,
    private readonly inputBytes: number,
  ) {}

  /** The refusal the entry earns, if any. */
  add(entry: ListedEntry): ConversionError | undefined {
    const n = ++this.entries;
    const { maxEntries, maxExpandedBytes, maxPathDepth } = this.limits;
    if (maxEntries !== undefined && n > maxEntries) return new ConversionError('file_too_large', `The archive holds more than ${maxEntries} entries; at most ${maxEntries} are converted.`);
    if (entry.kind !== 'file' && entry.kind !== 'directory') {
      return new ConversionError('security_rejected', `Entry ${n} of the archive is ${REFUSED_KINDS[entry.kind]}: only regular files and directories are carried across.`);
    }
    // A backslash is a separator to Windows tools: "a\..\b" climbs too. bsdtar prints a backslash doubled.
    if (entry.name.startsWith('/') || entry.name.startsWith('\\')) return new ConversionError('security_rejected', `Entry ${n} of the archive has an absolute path: only relative paths are carried across.`);
    const parts = entry.name.split(/[\\/]/).filter((part) => part !== '' && part !== '.');
    if (parts.includes('..')) return new ConversionError('security_rejected', `Entry ${n} of the archive has a path with "..": entries may not point outside the archive.`);
    if (maxPathDepth !== undefined && parts.length > maxPathDepth) return new ConversionError('security_rejected', `Entry ${n} of the archive is nested more than ${maxPathDepth} directories deep.`);
    this.declaredBytes += entry.size;
    return this.bomb() ?? (maxExpandedBytes !== undefined && this.declaredBytes > maxExpandedBytes ? tooLarge(maxExpandedBytes) : undefined);
  }

  /** Declared bytes past the ratio (and the floor): a bomb. */
  bomb(): ConversionError | undefined {
    const maxRatio = this.limits.maxCompressionRatio;
    if (maxRatio === undefined || this.declaredBytes <= RATIO_FLOOR_BYTES || this.declaredBytes <= this.inputBytes * maxRatio) return undefined;
    const ratio = Math.floor(this.declaredBytes / Math.max(1, this.inputBytes));
    return new ConversionError('security_rejected', `The archive expands ${ratio} times its size (at most ${maxRatio} times): it looks like a decompression bomb.`);
  }
}

export const tooLarge = (maxExpandedBytes: number) =>
  new ConversionError('file_too_large', `The archive's files add up to more than ${maxExpandedBytes} bytes; at most ${maxExpandedBytes} bytes are converted.`);
