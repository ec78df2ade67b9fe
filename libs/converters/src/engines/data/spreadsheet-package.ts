import { PackageError, readZipEntries, type ZipLimits } from '../../shared/zip-entries.js';
import type { DataRecord } from './records.js';
import { ODS_CONTENT, readOdsSheet } from './ods-sheet.js';
import { sheetRecords } from './spreadsheet-records.js';
import { readXlsxSheet, XLSX_PARTS } from './xlsx-sheet.js';

export type Spreadsheet = 'xlsx' | 'ods';

/**
 * Pure: the first sheet of a spreadsheet package as records that keep its cells' types. Only the parts that hold
 * the values are inflated, within `limits`.
 * @throws PackageError (not a readable package) or DataShapeError (past the sheet's limits, or empty)
 */
export function readSpreadsheetRecords(format: Spreadsheet, zip: Buffer, limits: ZipLimits): DataRecord[] {
  if (format === 'xlsx') return sheetRecords(readXlsxSheet(readZipEntries(zip, (name) => XLSX_PARTS.test(name), limits)));
  const content = readZipEntries(zip, (name) => name === ODS_CONTENT, limits).get(ODS_CONTENT);
  if (!content) throw new PackageError(`it has no ${ODS_CONTENT}`);
  return sheetRecords(readOdsSheet(content.toString('utf8')));
}
