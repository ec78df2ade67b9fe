import { first, parseXml, type XmlElement } from '../../shared/xml/office-xml-tree.js';
import { PackageError } from '../../shared/zip-entries.js';
import { DataShapeError } from './delimited-text.js';
import type { Scalar } from './records.js';
import { MAX_SHEET_CELLS, MAX_SHEET_COLUMNS, type SheetRows } from './spreadsheet-records.js';

/** The part of an OpenDocument spreadsheet its sheets are in. */
export const ODS_CONTENT = 'content.xml';

/** Elements that hold rows (a header, a group) rather than being one. */
const ROW_HOLDERS = new Set(['table:table-header-rows', 'table:table-row-group', 'table:table-rows']);
const CELLS = new Set(['table:table-cell', 'table:covered-table-cell']);

const elements = (element: XmlElement) => element.children.filter((child): child is XmlElement => typeof child !== 'string');
const repeat = (element: XmlElement, attribute: string) => Math.max(1, Number(element.attributes[attribute] ?? 1) || 1);

/** A paragraph's text: spans and links read through, text:s as its count of spaces, a tab, a line break. */
function paragraphText(element: XmlElement): string {
  return element.children
    .map((child) => {
      if (typeof child === 'string') return child;
      if (child.name === 'text:s') return ' '.repeat(repeat(child, 'text:c'));
      if (child.name === 'text:tab') return '\t';
      if (child.name === 'text:line-break') return '\n';
      if (child.name === 'office:annotation') return '';
      return paragraphText(child);
    })
    .join('');
}

/** Pure: an ISO 8601 duration of a time cell (PT13H05M00S) as the time of day it shows, 13:05:00. */
export function durationTimeText(duration: string): string {
  const match = /^-?P(?:\d+D)?T(\d+)H(\d+)M(\d+(?:\.\d+)?)S$/.exec(duration);
  if (!match) return duration;
  const [, hours, minutes, seconds] = match as unknown as [string, string, string, string];
  return [hours, minutes, String(Math.floor(Number(seconds)))].map((part) => part.padStart(2, '0')).join(':');
}

function cellValue(cell: XmlElement): Scalar | undefined {
  const { attributes } = cell;
  switch (attributes['office:value-type'] ?? attributes['calcext:value-type']) {
    case 'float':
    case 'percentage':
    case 'currency':
      return Number(attributes['office:value']);
    case 'boolean':
      return attributes['office:boolean-value'] === 'true';
    case 'date':
      return attributes['office:date-value'];
    case 'time':
      return durationTimeText(attributes['office:time-value'] ?? '');
  }
  const paragraphs = elements(cell).filter((child) => child.name === 'text:p');
  return paragraphs.length > 0 ? paragraphs.map(paragraphText).join('\n') : undefined;
}

/**
 * Pure: the first sheet of an OpenDocument spreadsheet (its content.xml), each cell as its value type has it: a
 * number (float, percentage, currency), a boolean, a date (ISO 8601, as written) or a time of day, else its text.
 * A repeated row or cell counts as many; empty repeats (a sheet's tail, often a million rows) are never spread.
 */
export function readOdsSheet(content: string): SheetRows {
  const spreadsheet = first(parseXml(content), 'office:spreadsheet');
  const table = spreadsheet && first(spreadsheet, 'table:table');
  if (!table) throw new PackageError('it has no sheet');
  const rows: SheetRows = [];
  let cells = 0;
  const readRow = (row: XmlElement) => {
    const values: Array<Scalar | undefined> = [];
    let column = 0;
    for (const cell of elements(row).filter((child) => CELLS.has(child.name))) {
      const value = cellValue(cell);
      const count = repeat(cell, 'table:number-columns-repeated');
      if (value !== undefined) {
        if (column + count > MAX_SHEET_COLUMNS) throw new DataShapeError(`a row has more than ${MAX_SHEET_COLUMNS} columns`);
        if ((cells += count) > MAX_SHEET_CELLS) throw new DataShapeError(`the sheet has more than ${MAX_SHEET_CELLS} cells`);
        for (let i = 0; i < count; i++) values[column + i] = value;
      }
      column += count;
    }
    if (!values.some((value) => value !== undefined && value !== '')) return;
    const count = repeat(row, 'table:number-rows-repeated');
    if ((cells += values.length * (count - 1)) > MAX_SHEET_CELLS) throw new DataShapeError(`the sheet has more than ${MAX_SHEET_CELLS} cells`);
    for (let i = 0; i < count; i++) rows.push([...values]);
  };
  const readRows = (holder: XmlElement) => {
    for (const child of elements(holder)) {
      if (child.name === 'table:table-row') readRow(child);
      else if (ROW_HOLDERS.has(child.name)) readRows(child);
    }
  };
  readRows(table);
  return rows;
}
