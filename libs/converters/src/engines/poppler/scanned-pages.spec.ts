import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { appendWithPages, textlessPages } from './scanned-pages.js';

const dir = mkdtempSync(join(tmpdir(), 'fileshift-scanned-pages-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What a file stream reads at a time: a file larger than this reaches the code in several chunks. */
const CHUNK_BYTES = 64 * 1024;

let files = 0;
/** A pdftotext output: each page's text ended by a form feed, as pdftotext writes it. */
function pdftotextOutput(...pages: string[]): string {
  const path = join(dir, `pages-${++files}.txt`);
  writeFileSync(path, pages.map((page) => `${page}\f`).join(''));
  return path;
}

describe('textlessPages', () => {
  it('lists the pages with only white space (spaces, tabs, line ends, no-break and ideographic spaces), numbered from the first page read', async () => {
    const path = pdftotextOutput('Introduction\n', '', '  \n\n\t\r\n', 'x', '\u00a0\u3000 \n', '  indented text  \n');
    expect(await textlessPages(path, 1)).toEqual([2, 3, 5]);
    expect(await textlessPages(path, 11)).toEqual([12, 13, 15]);
  });

  it('counts any visible character as text: a page number, a dot, a letter of any script', async () => {
    expect(await textlessPages(pdftotextOutput('7', '.', 'ß', '字', '\n\n'), 1)).toEqual([5]);
  });

  it('finds nothing in an output without pages, and no page after the last form feed', async () => {
    expect(await textlessPages(pdftotextOutput(), 1)).toEqual([]);
    const path = join(dir, 'no-final-form-feed.txt');
    writeFileSync(path, 'page one\f   ');
    expect(await textlessPages(path, 1)).toEqual([]);
  });

  it('follows pages across the chunks a large output is read in', async () => {
    const pages = [
      // Exactly one chunk of text: its form feed is the next chunk's first character.
      'a'.repeat(CHUNK_BYTES - 1) + '\n',
      // White space spanning a chunk boundary: textless.
      ' '.repeat(CHUNK_BYTES + 1000),
      // White space through a chunk boundary, its text only in the next chunk.
      '\n'.repeat(CHUNK_BYTES) + 'late text',
      // Text of two-byte letters, one of them split by a chunk boundary.
      'ü'.repeat(CHUNK_BYTES / 2 + 7),
      '\n',
    ];
    const path = pdftotextOutput(...pages);
    expect(statSync(path).size).toBeGreaterThan(4 * CHUNK_BYTES);
    expect(await textlessPages(path, 1)).toEqual([2, 5]);
  });
});

describe('appendWithPages', () => {
  it('replaces exactly the pages given, keeps the others byte for byte, and ends every page with a form feed', async () => {
    const kept = ['one\r\n  with  spaces  \n', '\n\nthree é€ \n', ''];
    const path = pdftotextOutput(kept[0]!, '   \n', kept[1]!, '', kept[2]!);
    const output = join(dir, 'replaced.txt');
    writeFileSync(output, 'before\n');
    await appendWithPages(path, output, 3, new Map([[4, 'OCR of four\n\n'], [6, '  six\fwith a form feed  \n']]));
    expect(readFileSync(output, 'utf8')).toBe('before\n' + `${kept[0]}\f` + 'OCR of four\n\f' + `${kept[1]}\f` + '  sixwith a form feed\n\f' + '\f');
  });

  it('copies the output unchanged when no page is replaced, pages numbered from another first page ignored', async () => {
    const path = pdftotextOutput('a\n', '\n', 'c\n');
    const output = join(dir, 'unchanged.txt');
    await appendWithPages(path, output, 10, new Map([[1, 'not a page of this output'], [13, 'past the last page']]));
    expect(readFileSync(output)).toEqual(readFileSync(path));
  });

  it('replaces and keeps pages that span the chunks a large output is read in', async () => {
    const first = 'ü'.repeat(CHUNK_BYTES / 2 + 7) + '\n';
    const scanned = ' '.repeat(CHUNK_BYTES * 2);
    const last = '€'.repeat(CHUNK_BYTES / 3 + 5) + '\r\n';
    const path = pdftotextOutput(first, scanned, last);
    const output = join(dir, 'large.txt');
    await appendWithPages(path, output, 1, new Map([[2, 'OCR of the scan']]));
    expect(readFileSync(output).equals(Buffer.from(`${first}\fOCR of the scan\n\f${last}\f`))).toBe(true);
  });
});
