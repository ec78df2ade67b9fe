import { extensionOf, type FileFormat, formatByExtension } from '@fileshift/formats';

/**
 * The file name with the format's canonical extension: kept as is when its extension already
 * belongs to the format, a known (wrong) or short extension replaced, anything else appended to.
 */
export function suggestFilename(filename: string, format: FileFormat): string {
  const base = filename.split(/[\\/]/).pop()?.trim() || 'file';
  const extension = extensionOf(base);
  if (extension && format.extensions.includes(extension)) return base;
  if (extension && (formatByExtension(extension) || /^[a-z0-9]{1,4}$/.test(extension))) {
    return `${base.slice(0, base.length - extension.length - 1)}.${format.extension}`;
  }
  return `${base}.${format.extension}`;
}
