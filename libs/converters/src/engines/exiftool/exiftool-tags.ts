/**
 * What `exiftool -G0:1 -a -s -s` lists of one file: how many tags of each kind, by "family 0:family 1" group and
 * name ("EXIF:GPS GPSLatitude"), values left out. exiftool prints one line a tag, its control characters (a value's
 * line breaks among them) turned into dots, so a value never starts a line of its own.
 */
export type TagCounts = Map<string, number>;

const TAG_LINE = /^\[([^\]\s]+)\] ([^\s:]+):/;
/** Groups exiftool makes up, not metadata of the file: its own version, the file system's facts, values it computes. */
const NOT_IN_THE_FILE = /^(?:ExifTool|Composite|File:System)(?::|$)/;

/** Pure: one line of the listing counted into `counts` (anything else, such as a file's header line, is skipped). */
export function countTagLine(line: string, counts: TagCounts): void {
  const match = TAG_LINE.exec(line);
  if (!match || NOT_IN_THE_FILE.test(match[1]!)) return;
  const key = `${match[1]} ${match[2]}`;
  counts.set(key, (counts.get(key) ?? 0) + 1);
}

/**
 * Pure: the tags `before` held that `after` does not (a tag listed twice before and once after counts once), counted
 * by the words a caller knows them by: "GPS" for EXIF's GPS directory, "EXIF" for the rest of EXIF, "XMP", "IPTC",
 * "maker notes", "comment"…
 */
export function removedTags(before: TagCounts, after: TagCounts): Map<string, number> {
  const removed = new Map<string, number>();
  for (const [key, count] of before) {
    const gone = count - (after.get(key) ?? 0);
    if (gone <= 0) continue;
    const kind = kindOf(key);
    removed.set(kind, (removed.get(kind) ?? 0) + gone);
  }
  return removed;
}

/** Pure: "removed 23 EXIF tags, 7 GPS tags, 2 XMP tags" (most first), or that there was none. */
export function removedTagsNote(removed: ReadonlyMap<string, number>): string {
  const kinds = [...removed].sort(([a, x], [b, y]) => y - x || a.localeCompare(b));
  if (kinds.length === 0) return 'found no metadata to remove';
  return `removed ${kinds.map(([kind, count]) => `${count} ${kind} ${count === 1 ? 'tag' : 'tags'}`).join(', ')}`;
}

const KIND_OF_GROUP: Record<string, string> = {
  MakerNotes: 'maker notes',
  ICC_Profile: 'colour profile',
  PDF: 'PDF document information',
  Photoshop: 'Photoshop',
  JFIF: 'JFIF',
  PNG: 'PNG',
  QuickTime: 'HEIF',
  RIFF: 'WebP',
};

function kindOf(key: string): string {
  const [groups = '', name = ''] = key.split(' ');
  const [family0 = '', family1 = ''] = groups.split(':');
  if (family1 === 'GPS') return 'GPS';
  // A JPEG's comment segment, a GIF's comment extension: exiftool lists them as the file's.
  if (/^(?:File|GIF)$/.test(family0) && name === 'Comment') return 'comment';
  return KIND_OF_GROUP[family0] ?? family0;
}
