import { describe, expect, it } from 'vitest';
import { odf, sampleOds, sampleXlsx } from '../../../testing/office-samples.js';
import { zip } from '../../../testing/zip-writer.js';
import { durationTimeText } from './ods-sheet.js';
import { readSpreadsheetRecords } from './spreadsheet-package.js';
import { columnIndex, columnLetters, sheetRecords } from './spreadsheet-records.js';
import { formatShows } from './xlsx-sheet.js';

const LIMITS = { maxEntries: 100, maxInflatedBytes: 10 * 1024 * 1024 };

/** An XLSX as Excel writes one: shared strings (a rich-text run, a phonetic reading), styles with dates, sparse cells. */
function excelLikeXlsx({ date1904 = false } = {}): Buffer {
  const workbook =
    `<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">` +
    `<workbookPr${date1904 ? ' date1904="1"' : ''}/><sheets><sheet name="Totals" sheetId="2" r:id="rId7"/><sheet name="Other" sheetId="1" r:id="rId1"/></sheets></workbook>`;
  const rels = `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId7" Type="worksheet" Target="/xl/worksheets/totals.xml"/></Relationships>`;
  const shared = `<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><si><t>region</t></si><si><r><t>uni</t></r><r><rPr><b/></rPr><t>ts</t></r></si><si><t>東京</t><rPh><t>トウキョウ</t></rPh></si><si><t>007</t></si></sst>`;
  const styles =
    `<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><numFmts><numFmt numFmtId="164" formatCode="yyyy\\-mm\\-dd;@"/><numFmt numFmtId="165" formatCode="[$-409]h:mm:ss\\ AM/PM"/><numFmt numFmtId="166" formatCode="0.0&quot; days&quot;"/></numFmts>` +
    `<cellXfs><xf numFmtId="0"/><xf numFmtId="164"/><xf numFmtId="14"/><xf numFmtId="165"/><xf numFmtId="22"/><xf numFmtId="166"/><xf numFmtId="10"/></cellXfs></styleSheet>`;
  const sheet =
    `<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>` +
    `<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="D1" t="inlineStr"><is><t>day</t></is></c><c r="E1" t="inlineStr"><is><t>units</t></is></c></row>` +
    `<row r="3"><c r="A3" t="s"><v>2</v></c><c r="B3"><v>12</v></c><c r="C3" t="b"><v>1</v></c><c r="D3" s="1"><v>45292</v></c><c r="E3" t="e"><v>#DIV/0!</v></c></row>` +
    `<row r="4"><c r="A4" t="s"><v>3</v></c><c r="B4" s="6"><v>0.125</v></c><c r="C4" t="b"><v>0</v></c><c r="D4" s="4"><v>45292.75</v></c><c r="E4" s="5"><v>2.5</v></c></row>` +
    `<row r="5"><c r="A5" t="str"><f>A4&amp;"!"</f><v>007!</v></c><c r="D5" s="2"><v>1</v></c><c r="E5" s="3"><v>0.5</v></c></row>` +
    `<row r="6"><c r="A6"/></row></sheetData></worksheet>`;
  return zip([
    { name: 'xl/workbook.xml', content: workbook },
    { name: 'xl/_rels/workbook.xml.rels', content: rels },
    { name: 'xl/sharedStrings.xml', content: shared },
    { name: 'xl/styles.xml', content: styles },
    { name: 'xl/worksheets/sheet1.xml', content: '<worksheet><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>not this one</t></is></c></row></sheetData></worksheet>' },
    { name: 'xl/worksheets/totals.xml', content: sheet },
  ]);
}

describe('spreadsheets to typed records (pure)', () => {
  it('names columns by letters and back', () => {
    expect([0, 25, 26, 701, 702, 16_383].map(columnLetters)).toEqual(['A', 'Z', 'AA', 'ZZ', 'AAA', 'XFD']);
    expect(['A', 'Z', 'AA', 'XFD'].map(columnIndex)).toEqual([0, 25, 26, 16_383]);
  });

  it('reads an XLSX as Excel writes it: the first sheet by the workbook’s order, shared strings, numbers, booleans, errors, formulas’ values, dates and times', () => {
    expect(readSpreadsheetRecords('xlsx', excelLikeXlsx(), LIMITS)).toEqual([
      { region: '東京', units: 12, C: true, day: '2024-01-01', 'units (E)': '#DIV/0!' },
      { region: '007', units: 0.125, C: false, day: '2024-01-01T18:00:00', 'units (E)': 2.5 },
      { region: '007!', units: null, C: null, day: '1900-01-01', 'units (E)': '12:00:00' },
    ]);
  });

  it('counts dates from 1904 where the workbook says so', () => {
    expect(readSpreadsheetRecords('xlsx', excelLikeXlsx({ date1904: true }), LIMITS)[0]!.day).toBe('2028-01-02');
  });

  it('reads the hand-written samples: inline strings and unstyled numbers', () => {
    expect(readSpreadsheetRecords('xlsx', sampleXlsx(), LIMITS)).toEqual([{ alpha: 1, beta: 2 }]);
    expect(readSpreadsheetRecords('ods', sampleOds(), LIMITS)).toEqual([{ alpha: 1, beta: 2 }]);
  });

  it('reads an ODS by its value types, repeated rows and cells spread, a sheet’s empty tail never', () => {
    const cell = (type: string, value: string, text = value) => `<table:table-cell office:value-type="${type}" ${value}><text:p>${text}</text:p></table:table-cell>`;
    const ods = odf(
      'spreadsheet',
      `<table:table table:name="Data"><table:table-column table:number-columns-repeated="1024"/>` +
        `<table:table-header-rows><table:table-row><table:table-cell office:value-type="string"><text:p>name<text:s text:c="2"/>x</text:p></table:table-cell>` +
        `<table:table-cell office:value-type="string"><text:p><text:span>when</text:span></text:p></table:table-cell><table:table-cell/><table:table-cell office:value-type="string"><text:p>ok</text:p></table:table-cell></table:table-row></table:table-header-rows>` +
        `<table:table-row table:number-rows-repeated="2"><table:table-cell office:value-type="string"><text:p>line one</text:p><text:p>line two</text:p></table:table-cell>` +
        `${cell('date', 'office:date-value="2024-03-01"', '03/01/24')}${cell('percentage', 'office:value="0.25"', '25%')}${cell('boolean', 'office:boolean-value="true"', 'TRUE')}</table:table-row>` +
        `<table:table-row>${cell('currency', 'office:value="-3.5"', '-$3.50')}${cell('time', 'office:time-value="PT13H05M09S"', '01:05 PM')}<table:table-cell table:number-columns-repeated="2" office:value-type="float" office:value="7"><text:p>7</text:p></table:table-cell></table:table-row>` +
        `<table:table-row table:number-rows-repeated="1048570"><table:table-cell table:number-columns-repeated="16384"/></table:table-row></table:table>` +
        `<table:table table:name="Second"><table:table-row><table:table-cell office:value-type="string"><text:p>not this one</text:p></table:table-cell></table:table-row></table:table>`,
    );
    const twice = { 'name  x': 'line one\nline two', when: '2024-03-01', C: 0.25, ok: true };
    expect(readSpreadsheetRecords('ods', ods, LIMITS)).toEqual([twice, twice, { 'name  x': -3.5, when: '13:05:09', C: 7, ok: 7 }]);
  });

  it('refuses a sheet that spreads past its limits, and what is not a spreadsheet', () => {
    const wide = odf('spreadsheet', `<table:table><table:table-row><table:table-cell table:number-columns-repeated="20000" office:value-type="float" office:value="1"/></table:table-row></table:table>`);
    expect(() => readSpreadsheetRecords('ods', wide, LIMITS)).toThrow('more than 16384 columns');
    const tall = odf('spreadsheet', `<table:table><table:table-row table:number-rows-repeated="2000000"><table:table-cell office:value-type="float" office:value="1"/><table:table-cell office:value-type="float" office:value="2"/></table:table-row></table:table>`);
    expect(() => readSpreadsheetRecords('ods', tall, LIMITS)).toThrow('more than 2000000 cells');
    expect(() => readSpreadsheetRecords('xlsx', Buffer.from('not a zip'), LIMITS)).toThrow('not a ZIP');
    expect(() => readSpreadsheetRecords('ods', zip([{ name: 'mimetype', content: 'x' }]), LIMITS)).toThrow('no content.xml');
    expect(() => sheetRecords([])).toThrow('empty');
  });

  it('tells a date format from a number format by its code', () => {
    expect(['yyyy-mm-dd', 'd/m/yy', 'mmm yyyy', '[$-F800]dddd\\,\\ mmmm\\ dd\\,\\ yyyy'].map(formatShows)).toEqual(['date', 'date', 'date', 'date']);
    expect(['h:mm', '[h]:mm:ss', 'mm:ss'].map(formatShows)).toEqual(['time', 'time', 'time']);
    expect(formatShows('yyyy-mm-dd hh:mm')).toBe('date-time');
    expect(['0.00', '#,##0', '0%', '"days" 0', '[Red]0.0', 'General', '@'].map(formatShows)).toEqual(Array(7).fill(undefined));
    expect(durationTimeText('PT08H30M00.5S')).toBe('08:30:00');
  });
});
