import { describe, expect, it } from 'vitest';
import { checkPackage } from './ebook-input.screen.js';
import { CALIBRE_DESCRIPTOR } from './calibre.descriptor.js';
import type { ZipDirectoryEntry } from '../../shared/zip-entries.js';

const entry = (name: string, size = 100, encrypted = false): ZipDirectoryEntry => ({ name, size, encrypted, method: 8, compressedSize: 50, localOffset: 0 });
const limits = CALIBRE_DESCRIPTOR.limits;

describe('checkPackage: an e-book or office package, judged from its ZIP directory alone', () => {
  it('passes an ordinary EPUB listing', () => {
    expect(checkPackage([entry('mimetype', 20), entry('META-INF/'), entry('META-INF/container.xml'), entry('OEBPS/chapter.xhtml', 40_000)], 20_000, limits)).toBeUndefined();
  });

  it.each([
    ['a "../" path', [entry('../escape.xhtml')]],
    ['a backslashed climb', [entry('OEBPS\\..\\..\\escape.xhtml')]],
    ['an absolute path', [entry('/etc/cron.d/x')]],
    ['a path deeper than the limit', [entry(`${'d/'.repeat(40)}x.xhtml`)]],
    ['an encrypted entry', [entry('OEBPS/chapter.xhtml', 100, true)]],
    ['declared bytes past the ratio', [entry('OEBPS/zeros.xhtml', 400 * 1024 * 1024)]],
  ])('refuses %s as security_rejected', (_name, entries) => {
    expect(checkPackage(entries, 1024 * 1024, limits)?.failureType).toBe('security_rejected');
  });

  it('refuses more entries or more bytes than the engine converts as file_too_large', () => {
    const many = Array.from({ length: limits.maxEntries! + 1 }, (_, i) => entry(`OEBPS/page-${i}.xhtml`, 10));
    expect(checkPackage(many, 1024 * 1024, limits)?.failureType).toBe('file_too_large');
    expect(checkPackage([entry('OEBPS/a.xhtml', limits.maxExpandedBytes! + 1)], 100 * 1024 * 1024, limits)?.failureType).toBe('file_too_large');
  });
});
