import type { FileFormat } from './file-format.js';
import { FORMAT_TABLE, LOSSY_FORMATS } from './format-table.js';

/** Every format the service knows: the one source of truth. */
export const FORMATS: readonly FileFormat[] = FORMAT_TABLE.map(([id, description, category, extensions, mimeTypes]) =>
  Object.freeze({ id, description, category, extension: extensions[0]!, extensions, mimeTypes }),
);

const byId = new Map(FORMATS.map((format) => [format.id, format]));
const byExtension = new Map<string, FileFormat>();
const byMime = new Map<string, FileFormat[]>();
// A canonical extension names its own format even where another format lists it as an alias.
for (const format of FORMATS) byExtension.set(format.extension, format);
for (const format of FORMATS) {
  for (const extension of format.extensions) if (!byExtension.has(extension)) byExtension.set(extension, format);
  for (const mime of format.mimeTypes) byMime.set(mime, [...(byMime.get(mime) ?? []), format]);
}

export function getFormat(id: string): FileFormat | undefined {
  return byId.get(id.toLowerCase());
}

/**
 * The format a caller names, as source or target: its canonical id, or any of its extensions as an alias
 * (jpeg, tif, yml, htm, markdown, mpg…), case-insensitive, with or without a leading dot.
 */
export function resolveFormat(name: string): FileFormat | undefined {
  return getFormat(name.trim().replace(/^\./, '')) ?? formatByExtension(name);
}

/** The format an extension names (case-insensitive, with or without the dot). */
export function formatByExtension(extension: string): FileFormat | undefined {
  return byExtension.get(extension.trim().replace(/^\./, '').toLowerCase());
}

export function formatsByMimeType(mime: string): FileFormat[] {
  return byMime.get(mime.split(';')[0]!.trim().toLowerCase()) ?? [];
}

/** Whether writing the format discards picture or sound (a lossy codec, fewer colours or channels). */
export function isLossyFormat(id: string): boolean {
  return LOSSY_FORMATS.has(id.toLowerCase());
}

export function mimeTypeOf(id: string): string {
  return byId.get(id)?.mimeTypes[0] ?? 'application/octet-stream';
}

/** Extensions of two parts that formats list (`tar.gz`, `tar.bz2`, `tar.xz`), longest first. */
const DOUBLE_EXTENSIONS = FORMATS.flatMap((format) => format.extensions.filter((extension) => extension.includes('.'))).sort((a, b) => b.length - a.length);

/**
 * The extension of a file name (lowercase, no leading dot), or '' when it has none. A double extension the
 * catalogue knows counts as one: `archive.tar.gz` → `tar.gz` (a tgz), `notes.txt.gz` → `gz`.
 */
export function extensionOf(filename: string): string {
  const base = filename.split(/[\\/]/).pop() ?? '';
  const lower = base.toLowerCase();
  const double = DOUBLE_EXTENSIONS.find((extension) => lower.length > extension.length + 1 && lower.endsWith(`.${extension}`));
  if (double) return double;
  const dot = base.lastIndexOf('.');
  return dot > 0 && dot < base.length - 1 ? base.slice(dot + 1).toLowerCase() : '';
}
