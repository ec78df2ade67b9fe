import { findAll, first, parseXml, type XmlElement } from '../../shared/xml/office-xml-tree.js';
import { PackageError } from '../../shared/zip-entries.js';
import { DataShapeError } from './delimited-text.js';
import type { Scalar } from './records.js';
import { columnIndex, MAX_SHEET_CELLS, MAX_SHEET_COLUMNS, serialDateText, type SheetRows } from './spreadsheet-records.js';

/** The parts of a workbook its first sheet's values are read from. */
export const XLSX_PARTS = /^xl\/(workbook\.xml|_rels\/workbook\.xml\.rels|sharedStrings\.xml|styles\.xml|worksheets\/[^/]+\.xml)$/;

/** Number formats SpreadsheetML builds in that show a time without a date, and the one that shows both. */
const BUILT_IN_TIMES = new Set([18, 19, 20, 21, 45, 46, 47]);
const BUILT_IN_DATE_TIME = 22;
/** Built-in number formats that show a date: 14–22, 45–47, and the East Asian 27–36, 50–58. */
const isBuiltInDate = (id: number) => (id >= 14 && id <= 22) || (id >= 27 && id <= 36) || (id >= 45 && id <= 47) || (id >= 50 && id <= 58);
/** Day 0 of the 1900 date system is 1899-12-30 (day 60, 1900-02-29, never was: Lotus's error, kept for dates after it). */
const EPOCH_1900 = Date.UTC(1899, 11, 30);
const EPOCH_1904 = Date.UTC(1904, 0, 1);

const textOf = (element: XmlElement | undefined): string =>
  element ? element.children.map((child) => (typeof child === 'string' ? child : child.name === 'rPh' ? '' : textOf(child))).join('') : '';

/** Pure: what a custom number format shows, from its code ("yyyy-mm-dd", "h:mm"), or undefined for a number. */
export function formatShows(code: string): 'date' | 'time' | 'date-time' | undefined {
  // Quoted text, escaped characters and [colour]/[condition] sections name no date part; [h] (elapsed hours) does.
  const parts = code.replace(/"[^"]*"|\\.|_.|\*./g, '').replace(/\[(?![hms]+\])[^\]]*\]/gi, '').split(';')[0]!;
  const date = /[dy]/i.test(parts) || (/m/i.test(parts) && !/[hs]/i.test(parts));
  const time = /[hs]/i.test(parts);
  return date && time ? 'date-time' : date ? 'date' : time ? 'time' : undefined;
}

/** For each cell style (its index in cellXfs), what a number in that style shows. */
function styleShows(styles: XmlElement | undefined): Array<'date' | 'time' | 'date-time' | undefined> {
  if (!styles) return [];
  const custom = new Map(findAll(styles, 'numFmt').map((format) => [Number(format.attributes.numFmtId), format.attributes.formatCode ?? '']));
  const cellFormats = first(styles, 'cellXfs');
  return (cellFormats ? findAll(cellFormats, 'xf') : []).map((format) => {
    const id = Number(format.attributes.numFmtId ?? 0);
    if (custom.has(id)) return formatShows(custom.get(id)!);
    if (!isBuiltInDate(id)) return undefined;
    return BUILT_IN_TIMES.has(id) ? 'time' : id === BUILT_IN_DATE_TIME ? 'date-time' : 'date';
  });
}

/** The part of the workbook's first sheet, by the workbook's order and its relationships. */
function firstSheetPart(part: (name: string) => XmlElement | undefined): string {
  const workbook = part('xl/workbook.xml');
  const sheet = workbook && first(workbook, 'sheet');
  if (!sheet) throw new PackageError('it has no sheet');
  const id = sheet.attributes['r:id'];
  const relationships = part('xl/_rels/workbook.xml.rels');
  const target = relationships && findAll(relationships, 'Relationship').find((relationship) => relationship.attributes.Id === id)?.attributes.Target;
  if (!target) throw new PackageError('its first sheet has no part');
  return target.startsWith('/') ? target.slice(1) : `xl/${target}`;
}

/**
 * Pure: the first sheet of a workbook (its parts as XLSX_PARTS selects them), each cell as its type has it: a
 * number, a boolean, text (shared, inline, a formula's, an error's code), and a number in a date or time format
 * as ISO 8601 text in the workbook's date system.
 */
export function readXlsxSheet(parts: ReadonlyMap<string, Buffer>): SheetRows {
  const part = (name: string) => {
    const bytes = parts.get(name);
    return bytes && parseXml(bytes.toString('utf8'));
  };
  const workbook = part('xl/workbook.xml');
  const epoch = workbook && first(workbook, 'workbookPr')?.attributes.date1904 === '1' ? EPOCH_1904 : EPOCH_1900;
  const sharedStrings = part('xl/sharedStrings.xml');
  const strings = sharedStrings ? findAll(sharedStrings, 'si').map(textOf) : [];
  const shows = styleShows(part('xl/styles.xml'));
  const sheet = part(firstSheetPart(part));
  if (!sheet) throw new PackageError('its first sheet is missing');

  const rows: SheetRows = [];
  let cells = 0;
  for (const row of findAll(sheet, 'row')) {
    const values: Array<Scalar | undefined> = [];
    for (const cell of findAll(row, 'c')) {
      const column = /^([A-Z]{1,3})\d+$/.exec(cell.attributes.r ?? '')?.[1];
      const at = column ? columnIndex(column) : values.length;
      if (at >= MAX_SHEET_COLUMNS) throw new DataShapeError(`a row has more than ${MAX_SHEET_COLUMNS} columns`);
      const value = cellValue(cell, strings, shows, epoch);
      if (value !== undefined) values[at] = value;
      if (++cells > MAX_SHEET_CELLS) throw new DataShapeError(`the sheet has more than ${MAX_SHEET_CELLS} cells`);
    }
    if (values.some((value) => value !== undefined && value !== '')) rows.push(values);
  }
  return rows;
}

function cellValue(cell: XmlElement, strings: readonly string[], shows: ReturnType<typeof styleShows>, epoch: number): Scalar | undefined {
  const type = cell.attributes.t ?? 'n';
  if (type === 'inlineStr') return textOf(first(cell, 'is'));
  const raw = first(cell, 'v');
  if (!raw) return undefined;
  const text = textOf(raw);
  if (type === 's') return strings[Number(text)] ?? '';
  if (type === 'b') return text === '1' || text === 'true';
  if (type === 'str' || type === 'e' || type === 'd') return text;
  const number = Number(text);
  if (text.trim() === '' || !Number.isFinite(number)) return text;
  const style = shows[Number(cell.attributes.s ?? 0)];
  return style ? serialDateText(number, epoch === EPOCH_1900 && number < 60 ? epoch + 86_400_000 : epoch, style) : number;
}
