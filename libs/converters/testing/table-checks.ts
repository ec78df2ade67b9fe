import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { pdfText, zipEntries, zipText } from './document-checks.js';
import { readMobi } from './ebook-samples.js';

// A document's table read back row by row, by readers that are not the service's: poppler's pdftotext, Info-ZIP's
// unzip, our MOBI reader, and the text itself. Each format's rows are what its own syntax makes a row: a line of
// plain text or markup, a <tr> of HTML, a w:tr of WordprocessingML, a \row of RTF.

/** Where each format's rows end: an element of its XML, or a line. */
const ROW_END: Record<string, RegExp> = {
  html: /<\/tr>/i,
  epub: /<\/tr>/i,
  mobi: /<\/tr>/i,
  azw3: /<\/tr>/i,
  fb2: /<\/tr>/i,
  docx: /<\/w:tr>/,
  xlsx: /<\/row>/,
  pptx: /<\/a:tr>/,
  odt: /<\/table:table-row>/,
  ods: /<\/table:table-row>/,
  odp: /<\/table:table-row>/,
  rtf: /\\row\b/,
};

/** Formats whose rows are lines: plain text, the text markups, CSV, a notebook's cells, the text pdftotext reads from a PDF. */
const LINE_FORMATS = ['pdf', 'txt', 'csv', 'md', 'rst', 'org', 'tex', 'adoc', 'ipynb'];

/** The formats whose rows this module reads. */
export const ROW_READABLE_FORMATS: ReadonlySet<string> = new Set([...Object.keys(ROW_END), ...LINE_FORMATS]);

/** The XML or text of a `format` file in which rows are found. */
function documentText(path: string, format: string): string {
  if (format === 'pdf') return pdfText(path);
  if (format === 'docx') return zipText(path, 'word/document.xml');
  if (format === 'xlsx') return zipText(path, 'xl/worksheets/sheet1.xml').replace(/<c [^>]*t="s"[^>]*><v>(\d+)<\/v><\/c>/g, (_, index: string) => ` ${sharedStrings(path)[Number(index)]} `);
  if (format === 'pptx') return zipEntries(path).filter((entry) => /^ppt\/slides\/slide\d+\.xml$/.test(entry)).map((entry) => zipText(path, entry)).join('\n');
  if (format === 'odt' || format === 'ods' || format === 'odp') return zipText(path, 'content.xml');
  if (format === 'epub') return zipEntries(path).filter((entry) => /\.x?html?$/.test(entry)).map((entry) => zipText(path, entry)).join('\n');
  if (format === 'mobi' || format === 'azw3') return readMobi(readFileSync(path)).text;
  if (format === 'ipynb') {
    const notebook = JSON.parse(readFileSync(path, 'utf8')) as { cells: Array<{ source: string | string[] }> };
    return notebook.cells.map((cell) => (Array.isArray(cell.source) ? cell.source.join('') : cell.source)).join('\n');
  }
  return readFileSync(path, 'utf8');
}

function sharedStrings(path: string): string[] {
  if (!zipEntries(path).includes('xl/sharedStrings.xml')) return [];
  return [...zipText(path, 'xl/sharedStrings.xml').matchAll(/<si>([\s\S]*?)<\/si>/g)].map((match) => match[1]!.replace(/<[^>]+>/g, ''));
}

/** The rows of a `format` file: the text between row ends, tags dropped, whitespace collapsed. */
export function documentRows(path: string, format: string): string[] {
  if (!ROW_READABLE_FORMATS.has(format)) throw new Error(`table-checks cannot read the rows of ${format}`);
  const text = documentText(path, format);
  const rowEnd = ROW_END[format];
  const rows = rowEnd ? text.split(new RegExp(rowEnd.source, `${rowEnd.flags}g`)) : text.split(/\r?\n/);
  return rows.map((row) => (rowEnd ? row.replace(/<[^>]*>/g, ' ') : row).replace(/\s+/g, ' ').trim());
}

const wordsIn = (row: string): string[] => row.match(/[\p{L}\p{N}]+/gu) ?? [];

/** The index of the first row from `from` on that holds `cells` as words, in order. */
function rowHolding(rows: readonly string[], cells: readonly string[], from: number): number {
  for (let at = from; at < rows.length; at++) {
    const words = wordsIn(rows[at]!);
    let next = 0;
    const held = cells.every((cell) => {
      const found = words.indexOf(cell, next);
      next = found + 1;
      return found >= 0;
    });
    if (held) return at;
  }
  return -1;
}

/** The table survived as a table: each of its rows is one row of the output, its cells in order, the rows in order. */
export function expectTableRows(path: string, format: string, table: ReadonlyArray<readonly string[]>): void {
  const rows = documentRows(path, format);
  let at = 0;
  for (const cells of table) {
    const found = rowHolding(rows, cells, at);
    expect(found, `${format}: a row holding ${cells.join(' | ')}, after the table's earlier rows`).toBeGreaterThanOrEqual(0);
    at = found + 1;
  }
}

/** The table's cells survived as text, in reading order (a target that holds no tables: the rows are not kept). */
export function expectTableCells(path: string, format: string, table: ReadonlyArray<readonly string[]>): void {
  const words = documentRows(path, format).flatMap(wordsIn);
  let next = 0;
  for (const cell of table.flat()) {
    const found = words.indexOf(cell, next);
    expect(found, `${format}: the cell ${cell}, after the cells before it`).toBeGreaterThanOrEqual(0);
    next = found + 1;
  }
}
