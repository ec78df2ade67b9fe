import { describe, expect, it } from 'vitest';
import { extensionOf, FORMAT_CATEGORIES, formatByExtension, FORMATS, formatsByMimeType, getFormat, mimeTypeOf, resolveFormat } from '../src/index.js';

describe('format catalogue', () => {
  it('holds at least 120 formats with unique lowercase ids and canonical extensions', () => {
    expect(FORMATS.length).toBeGreaterThanOrEqual(120);
    const ids = FORMATS.map((f) => f.id);
    expect(new Set(ids).size).toBe(ids.length);
    const canonical = FORMATS.map((f) => f.extension);
    expect(new Set(canonical).size).toBe(canonical.length);
    for (const format of FORMATS) {
      expect(format.id).toMatch(/^[a-z0-9]+$/);
      expect(format.extension).toBe(format.extensions[0]);
      // Canonical extensions are one word; an alias may be a double extension (tar.gz).
      expect(format.extension).toMatch(/^[a-z0-9]+$/);
      expect(format.extensions.every((e) => /^[a-z0-9]+(\.[a-z0-9]+)?$/.test(e))).toBe(true);
      expect(format.mimeTypes.length).toBeGreaterThan(0);
      expect(FORMAT_CATEGORIES).toContain(format.category);
    }
  });

  it('covers every category, including the text formats', () => {
    for (const category of FORMAT_CATEGORIES) expect(FORMATS.some((f) => f.category === category), category).toBe(true);
    for (const id of ['csv', 'tsv', 'json', 'xml', 'html', 'svg', 'md', 'yaml', 'rtf', 'txt']) expect(getFormat(id), id).toBeDefined();
  });

  it('looks formats up by id, extension and MIME type', () => {
    expect(getFormat('JPG')?.description).toBe('JPEG image');
    expect(formatByExtension('.JPEG')?.id).toBe('jpg');
    expect(formatByExtension('tif')?.id).toBe('tiff');
    expect(formatByExtension('ts')?.id).toBe('ts');
    expect(formatByExtension('m2ts')?.id).toBe('m2ts');
    expect(formatByExtension('nope')).toBeUndefined();
    expect(formatsByMimeType('image/png; charset=binary').map((f) => f.id)).toEqual(['png']);
    expect(formatsByMimeType('application/postscript').map((f) => f.id).sort()).toEqual(['eps', 'ps']);
    expect(mimeTypeOf('docx')).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    expect(mimeTypeOf('unknown')).toBe('application/octet-stream');
  });

  it('resolves a format named by its id or by any alias (one of its extensions)', () => {
    const resolved = (name: string) => resolveFormat(name)?.id;
    expect(['jpeg', 'JPG', '.jpe', 'jfif'].map(resolved)).toEqual(['jpg', 'jpg', 'jpg', 'jpg']);
    expect(['tif', 'yml', 'htm', 'markdown', 'mpg', 'wave', 'oga', 'ssa'].map(resolved)).toEqual(['tiff', 'yaml', 'html', 'md', 'mpeg', 'wav', 'ogg', 'ass']);
    // An id wins over another format's alias of the same name.
    expect(resolved('mpeg')).toBe('mpeg');
    expect(resolved(' docx ')).toBe('docx');
    expect(resolved('wepb')).toBeUndefined();
  });

  it('knows tar archives inside gzip, bzip2 and xz by their double extensions, apart from plain compressed files', () => {
    const byName = (name: string) => formatByExtension(extensionOf(name))?.id;
    expect(['a.tar.gz', 'a.tgz', 'a.tar.bz2', 'a.tbz2', 'a.tbz', 'a.tar.xz', 'a.txz'].map(byName)).toEqual(['tgz', 'tgz', 'tbz2', 'tbz2', 'tbz2', 'txz', 'txz']);
    expect(['a.gz', 'a.txt.gz', 'a.bz2', 'a.xz', 'a.tar'].map(byName)).toEqual(['gz', 'gz', 'bz2', 'xz', 'tar']);
    expect(['tar.gz', '.TAR.XZ', 'tbz'].map((name) => resolveFormat(name)?.id)).toEqual(['tgz', 'txz', 'tbz2']);
    expect(mimeTypeOf('tgz')).toBe('application/gzip');
  });

  it('takes the extension of a file name', () => {
    expect(extensionOf('photo.JPG')).toBe('jpg');
    expect(extensionOf('archive.tar.gz')).toBe('tar.gz');
    expect(extensionOf('dir/Backup.TAR.BZ2')).toBe('tar.bz2');
    expect(extensionOf('notes.txt.gz')).toBe('gz');
    expect(extensionOf('.tar.gz')).toBe('gz');
    expect(extensionOf('.bashrc')).toBe('');
    expect(extensionOf('README')).toBe('');
    expect(extensionOf('dir.v2/file')).toBe('');
    expect(extensionOf('trailing.')).toBe('');
  });
});
