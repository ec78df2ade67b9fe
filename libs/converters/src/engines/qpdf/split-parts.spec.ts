import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConversionError } from '../../platform/conversion-error.js';
import { parseRanges, partName, rangesCountWithin, rangesRunForward, splitParts } from './split-parts.js';
import { writeStoredZip } from '../../shared/stored-zip.writer.js';

describe('the parts of a split (pure)', () => {
  it('reads ranges in the caller\'s order, a single page as a range of one', () => {
    expect(parseRanges('1-3,4-7,9')).toEqual([[1, 3], [4, 7], [9, 9]]);
    expect(parseRanges('5,1-2')).toEqual([[5, 5], [1, 2]]);
    expect(rangesRunForward('1-3,9')).toBe(true);
    expect(rangesRunForward('1-3,7-4')).toBe(false);
    expect(rangesCountWithin(Array.from({ length: 100 }, (_, i) => i + 1).join(','))).toBe(true);
    expect(rangesCountWithin(Array.from({ length: 101 }, (_, i) => i + 1).join(','))).toBe(false);
  });

  it('makes a part every n pages, the last one what is left; one part per page by default', () => {
    expect(splitParts({ every: 2 }, 5)).toEqual([[1, 2], [3, 4], [5, 5]]);
    expect(splitParts({ every: 10 }, 5)).toEqual([[1, 5]]);
    expect(splitParts({}, 3)).toEqual([[1, 1], [2, 2], [3, 3]]);
  });

  it('makes a part per range, cut at the last page; a range past the end is refused', () => {
    expect(splitParts({ ranges: '1-3,4-7,2' }, 5)).toEqual([[1, 3], [4, 5], [2, 2]]);
    let error: unknown;
    try {
      splitParts({ ranges: '1-2,9' }, 5);
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(ConversionError);
    expect((error as ConversionError).failureType).toBe('unsupported_or_corrupt_input');
    expect((error as ConversionError).message).toBe('The PDF has 5 pages: part 2 of the split (9) starts past its end.');
  });

  it('names parts so they sort in order', () => {
    expect(partName(0, 3)).toBe('part-001.pdf');
    expect(partName(41, 999)).toBe('part-042.pdf');
    expect(partName(0, 2000)).toBe('part-0001.pdf');
  });
});

describe('the ZIP of the parts', () => {
  const dir = mkdtempSync(join(tmpdir(), 'fileshift-stored-zip-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('holds each file under its name, byte for byte, as unzip reads it (CRCs checked)', async () => {
    const files = [
      { path: join(dir, 'a'), name: 'part-001.pdf', content: Buffer.from('%PDF-1.4 first part\n') },
      { path: join(dir, 'b'), name: 'part-002.pdf', content: Buffer.alloc(300_000, 7) },
      { path: join(dir, 'c'), name: 'part-003.pdf', content: Buffer.alloc(0) },
    ];
    for (const file of files) writeFileSync(file.path, file.content);
    const zip = join(dir, 'parts.zip');
    await writeStoredZip(files, zip);
    // -t: unzip checks every entry's CRC.
    expect(execFileSync('unzip', ['-t', zip], { encoding: 'utf8' })).toMatch(/No errors detected/);
    expect(execFileSync('unzip', ['-Z1', zip], { encoding: 'utf8' }).split('\n').filter(Boolean)).toEqual(['part-001.pdf', 'part-002.pdf', 'part-003.pdf']);
    for (const file of files) expect(execFileSync('unzip', ['-p', zip, file.name], { maxBuffer: 1 << 20 }).equals(file.content), file.name).toBe(true);
  });
});
