import { DataShapeError } from './delimited-text.js';
import type { DataRecord, Scalar } from './records.js';

/** A sheet's cells as read, row by row; a cell nobody wrote is undefined. Blank rows are not in it. */
export type SheetRows = Array<Array<Scalar | undefined>>;

/** The most cells a sheet may spread to (ODS repeats a row or cell by a count, so a small file can claim millions). */
export const MAX_SHEET_CELLS = 2_000_000;
/** The most columns a sheet has in Excel and LibreOffice (XFD). */
export const MAX_SHEET_COLUMNS = 16_384;

/** Pure: a column's letters from its index (0 → A, 26 → AA), as the spreadsheet shows them. */
export function columnLetters(index: number): string {
  let letters = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return letters;
}

/** Pure: a column's index from its letters (A → 0, AA → 26). */
export function columnIndex(letters: string): number {
  let index = 0;
  for (const letter of letters) index = index * 26 + (letter.charCodeAt(0) - 64);
  return index - 1;
}

/**
 * Pure: a sheet as records, its types kept: the first row names the columns, each row after it is a record whose
 * numbers, booleans and dates (ISO 8601 text) stay what the cells hold, and an empty cell is null. A column with no
 * name is named by its letters; a name used twice is followed by the letters of its second column ("total (D)"),
 * so no value is overwritten.
 */
export function sheetRecords(rows: SheetRows): DataRecord[] {
  const [header, ...body] = rows;
  if (!header) throw new DataShapeError('the first sheet is empty');
  const width = Math.max(...rows.map((row) => row.length));
  const names: string[] = [];
  for (let column = 0; column < width; column++) {
    const cell = header[column];
    const name = cell === undefined || cell === null || String(cell).trim() === '' ? columnLetters(column) : String(cell);
    names.push(names.includes(name) ? `${name} (${columnLetters(column)})` : name);
  }
  return body.map((row) => Object.fromEntries(names.map((name, column) => [name, row[column] ?? null])));
}

/** Pure: an ISO 8601 date, time or both, from a spreadsheet's count of days (a serial date) since `epoch`. */
export function serialDateText(days: number, epochMs: number, shows: 'date' | 'time' | 'date-time'): string {
  const iso = new Date(Math.round((epochMs + days * 86_400_000) / 1000) * 1000).toISOString();
  if (shows === 'date') return iso.slice(0, 10);
  if (shows === 'time') return iso.slice(11, 19);
  return iso.slice(0, 19);
}
