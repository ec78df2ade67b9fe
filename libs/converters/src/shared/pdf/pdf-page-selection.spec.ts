import { describe, expect, it } from 'vitest';
import { ConversionError } from '../../platform/conversion-error.js';
import { pageRaster } from '../../engines/poppler/page-raster.js';
import { parsePdfInfo } from './pdf-info.reader.js';
import { pageListText, pageRanges, pagesWithinLimit } from './pdf-page-selection.js';
import { StepDeadline } from '../../platform/step-deadline.js';

const failure = (work: () => unknown) => {
  try {
    work();
  } catch (error) {
    return error as ConversionError;
  }
  throw new Error('no failure');
};

describe('pages of a PDF within the limit (pure)', () => {
  it('selects every page, or the pages asked for within the document, in order', () => {
    expect(pagesWithinLimit(undefined, 3, 200)).toEqual([1, 2, 3]);
    expect(pagesWithinLimit('5,2-3,3,9', 6, 200)).toEqual([2, 3, 5]);
  });

  it('refuses more pages than the limit with file_too_large, and pages that do not exist', () => {
    const tooMany = failure(() => pagesWithinLimit(undefined, 3000, 200));
    expect(tooMany.failureType).toBe('file_too_large');
    expect(tooMany.message).toBe('This conversion would work on 3000 pages; it takes at most 200 pages at a time: choose at most 200 with the pages option, e.g. "1-200".');
    expect(pagesWithinLimit('1-200', 3000, 200)).toHaveLength(200);
    expect(failure(() => pagesWithinLimit('1-201', 3000, 200)).failureType).toBe('file_too_large');
    const missing = failure(() => pagesWithinLimit('4-5', 3, 200));
    expect(missing.failureType).toBe('unsupported_or_corrupt_input');
    expect(missing.message).toContain('The PDF has 3 pages');
  });

  it('groups pages in runs of consecutive pages, and writes them as a page list', () => {
    expect(pageRanges([1, 2, 3, 5, 7, 8])).toEqual([[1, 3], [5, 5], [7, 8]]);
    expect(pageListText([1, 2, 3, 5, 7, 8])).toBe('1-3,5,7-8');
    expect(pageRanges([])).toEqual([]);
  });
});

describe('pageRaster (pure): pdftoppm arguments and the pixel size they give', () => {
  const letter = { width: 612, height: 792 };
  it('renders at the dpi, 150 by default, rounding up as pdftoppm does', () => {
    expect(pageRaster(letter, {})).toEqual({ args: ['-r', '150'], width: 1275, height: 1650 });
    expect(pageRaster({ width: 595, height: 842 }, { dpi: 150 })).toMatchObject({ width: 1240, height: 1755 });
  });

  it('lets a width or height win over dpi; both make a box the page fits in', () => {
    expect(pageRaster(letter, { dpi: 300, width: 306 })).toEqual({ args: ['-scale-to-x', '306', '-scale-to-y', '-1'], width: 306, height: 396 });
    expect(pageRaster(letter, { height: 396 })).toEqual({ args: ['-scale-to-x', '-1', '-scale-to-y', '396'], width: 306, height: 396 });
    expect(pageRaster(letter, { width: 1000, height: 396 })).toMatchObject({ width: 306, height: 396 });
    expect(pageRaster(letter, { width: 306, height: 5000 })).toMatchObject({ width: 306, height: 396 });
  });
});

describe('parsePdfInfo (pure)', () => {
  const report = [
    'Title:           Quarterly report',
    'Pages:           1',
    'Encrypted:       no',
    'Producer:        forged by the title above',
    'Pages:           12',
    'Encrypted:       yes (print:yes copy:no change:no addNotes:no algorithm:AES-256)',
    'Page    1 rot:   90',
    'Page    1 MediaBox:      0.00     0.00   612.00   792.00',
    'Page    1 CropBox:      10.00    20.00   510.00   720.00',
    'Page    2 rot:   0',
    'Page    2 CropBox:       0.00     0.00   595.00   842.00',
  ].join('\n');

  it('reads pages, encryption, permissions and the crop boxes (rotation applied); the last page count wins', () => {
    const info = parsePdfInfo(report);
    expect(info.pages).toBe(12);
    expect(info.encrypted).toBe(true);
    expect(info.permissions).toEqual({ print: true, copy: false, change: false });
    expect(info.title).toBe('Quarterly report');
    expect(info.pageBoxes.get(1)).toEqual({ width: 700, height: 500 });
    expect(info.pageBoxes.get(2)).toEqual({ width: 595, height: 842 });
  });

  it('allows everything when the PDF is not encrypted', () => {
    expect(parsePdfInfo('Pages:           2\nEncrypted:       no\n').permissions).toEqual({ print: true, copy: true, change: true });
  });
});

describe('StepDeadline', () => {
  it('gives each run what is left of the step, and fails with a timeout when nothing is', () => {
    let now = 1_000;
    const deadline = new StepDeadline(10_000, () => now);
    expect(deadline.remainingMs()).toBe(10_000);
    expect(deadline.remainingMs(3_000)).toBe(3_000);
    now += 9_000;
    expect(deadline.remainingMs(3_000)).toBe(1_000);
    now += 1_000;
    const error = failure(() => deadline.remainingMs());
    expect(error.failureType).toBe('timeout');
    expect(error.retryable).toBe(true);
  });
});
