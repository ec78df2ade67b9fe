import { describe, expect, it } from 'vitest';
import { assertFormat, ListingCheck, parseEntryLine, parseFormatLine, RATIO_FLOOR_BYTES } from './archive-listing.js';
import { ConversionError } from '../../platform/conversion-error.js';

const LIMITS = { timeoutMs: 1000, maxOutputBytes: 1000, maxEntries: 3, maxExpandedBytes: 64 * 1024 * 1024, maxCompressionRatio: 200, maxPathDepth: 4 };

describe('bsdtar -tv --numeric-owner lines', () => {
  it('reads the kind, the declared size and the name, whatever the name holds', () => {
    expect(parseEntryLine('-rw-r--r--  0 0      0           2 Jan  1  1970 a -> b')).toEqual({ kind: 'file', name: 'a -> b', size: 2 });
    expect(parseEntryLine('-rw-r--r--  0 0      0           2 Nov 23 11:55   lead')).toEqual({ kind: 'file', name: '  lead', size: 2 });
    expect(parseEntryLine('drwxr-xr-x  0 1000   1000        0 Nov 23 11:55 docs/')).toEqual({ kind: 'directory', name: 'docs/', size: 0 });
    expect(parseEntryLine('-rwsr-xr-x+ 1 0      0     1048576 Feb  9 2024 bin/tool')).toEqual({ kind: 'file', name: 'bin/tool', size: 1048576 });
    expect(parseEntryLine('lrwxrwxrwx  0 0      0           0 Nov 23 11:55 ./link -> /etc/passwd')).toMatchObject({ kind: 'symlink' });
    expect(parseEntryLine('hrw-r--r--  0 0      0           0 Nov 23 11:55 ./a.txt link to ./hard')).toMatchObject({ kind: 'hardlink' });
    expect(parseEntryLine('crw-r--r--  0 0      0         1,3 Jan  1  1970 dev')).toMatchObject({ kind: 'device', size: 0 });
    expect(parseEntryLine('prw-r--r--  0 0      0           0 Nov 23 11:55 ./fifo')).toMatchObject({ kind: 'fifo' });
    expect(parseEntryLine('srw-r--r--  0 0      0           0 Nov 23 11:55 sock')).toMatchObject({ kind: 'socket' });
    expect(parseEntryLine('?rw-r--r--  0 0      0           0 Nov 23 11:55 odd')).toMatchObject({ kind: 'unknown' });
    // Owner names instead of numbers (no --numeric-owner) could hold spaces: not read.
    expect(parseEntryLine('-rw-r--r--  0 evil user g g       2 Jan  1  1970 x')).toBeUndefined();
    expect(parseFormatLine('Archive Format: GNU tar format,  Compression: gzip')).toEqual({ format: 'GNU tar format', compression: 'gzip' });
  });
});

describe('ListingCheck', () => {
  const failure = (error: ConversionError | undefined) => error && [error.failureType, error.message];

  it('refuses links, devices, absolute paths, ".." in either separator and deep paths, naming the entry by number', () => {
    const check = new ListingCheck(LIMITS, 1000);
    expect(check.add({ kind: 'file', name: 'a/b/c/d.txt', size: 1 })).toBeUndefined();
    expect(failure(check.add({ kind: 'symlink', name: 'x', size: 0 }))).toEqual(['security_rejected', 'Entry 2 of the archive is a symbolic link: only regular files and directories are carried across.']);
    const paths = new ListingCheck({ ...LIMITS, maxEntries: 100 }, 1000);
    for (const name of ['/etc/cron.d/x', '\\\\server\\share']) expect(failure(paths.add({ kind: 'file', name, size: 1 }))?.[1]).toMatch(/absolute path/);
    for (const name of ['../x', 'a/../../x', 'a\\\\..\\\\x', './..']) expect(failure(paths.add({ kind: 'file', name, size: 1 }))?.[1]).toMatch(/"\.\."/);
    for (const name of ['a..b', '..a/b..', './a/./b']) expect(paths.add({ kind: 'file', name, size: 1 })).toBeUndefined();
    expect(failure(paths.add({ kind: 'directory', name: 'a/b/c/d/e/', size: 0 }))?.[1]).toMatch(/nested more than 4 directories deep/);
  });

  it('counts entries and declared bytes; a bomb only past the floor', () => {
    const many = new ListingCheck(LIMITS, 1000);
    for (let i = 0; i < 3; i++) expect(many.add({ kind: 'file', name: `f${i}`, size: 1 })).toBeUndefined();
    expect(failure(many.add({ kind: 'file', name: 'f3', size: 1 }))?.[0]).toBe('file_too_large');
    const dense = new ListingCheck(LIMITS, 1000);
    expect(dense.add({ kind: 'file', name: 'zeros', size: RATIO_FLOOR_BYTES })).toBeUndefined();
    expect(failure(dense.add({ kind: 'file', name: 'more', size: 1 }))?.[0]).toBe('security_rejected');
    const large = new ListingCheck(LIMITS, 10 * 1024 * 1024);
    expect(failure(large.add({ kind: 'file', name: 'big', size: 65 * 1024 * 1024 }))?.[0]).toBe('file_too_large');
  });

  it('wants the format libarchive found to be the one claimed', () => {
    expect(() => assertFormat('zip', { format: 'ZIP 2.0 (deflation)', compression: 'none' })).not.toThrow();
    expect(() => assertFormat('tgz', { format: 'POSIX ustar format', compression: 'gzip' })).not.toThrow();
    expect(() => assertFormat('tar', { format: 'tar', compression: 'none' })).not.toThrow();
    expect(() => assertFormat('tar', { format: 'POSIX cpio', compression: 'none' })).toThrow('The input is not a tar archive: it reads as POSIX cpio.');
    expect(() => assertFormat('7z', undefined)).toThrow('could not be read as a 7-Zip archive');
  });
});
