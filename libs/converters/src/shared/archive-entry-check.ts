import { ConversionError } from '../platform/conversion-error.js';
import type { EngineLimits } from '../platform/engine-descriptor.js';

// The checks of an archive's entries before anything is extracted, shared by the archive engine (bsdtar's listing)
// and calibre (a ZIP package's central directory).

/** Kinds of archive entries as `bsdtar -tv` shows them (the first letter of the mode). */
export type EntryKind = 'file' | 'directory' | 'symlink' | 'hardlink' | 'device' | 'fifo' | 'socket' | 'unknown';

export interface ListedEntry {
  kind: EntryKind;
  /** As bsdtar prints it: non-printable characters escaped (`\n`, `\ooo`), a backslash doubled. */
  name: string;
  /** Declared by the archive's headers; 0 for anything but a regular file. */
  size: number;
}

const REFUSED_KINDS: Record<Exclude<EntryKind, 'file' | 'directory'>, string> = {
  symlink: 'a symbolic link',
  hardlink: 'a hard link',
  device: 'a device file',
  fifo: 'a FIFO (named pipe)',
  socket: 'a socket',
  unknown: 'an entry of an unknown type',
};

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
