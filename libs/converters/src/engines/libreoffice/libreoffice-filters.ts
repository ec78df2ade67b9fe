import type { ConversionOptions } from '../../platform/conversion-options.js';
import {
  LIBREOFFICE_SHEET_INPUTS,
  LIBREOFFICE_SHEET_OUTPUTS,
  LIBREOFFICE_SLIDE_INPUTS,
  LIBREOFFICE_SLIDE_OUTPUTS,
  LIBREOFFICE_TEXT_INPUTS,
  LIBREOFFICE_TEXT_OUTPUTS,
} from './libreoffice.descriptor.js';

/** Which LibreOffice module a document opens in: Writer, Calc or Impress. */
export type DocumentFamily = 'text' | 'sheet' | 'slide';

/** How the bridge loads one input and stores one output (LibreOffice filter names and options). */
export interface FilterPlan {
  family: DocumentFamily;
  /** Forced import filter: text formats carry no magic, so LibreOffice's type detection is not asked. */
  importFilter?: string;
  importFilterOptions?: string;
  /**
   * Without a forced import filter, type detection reads the input: it must have chosen a filter starting with
   * one of these, or the input is refused (a "docx" holding plain text would otherwise be converted as text).
   */
  acceptImports?: readonly string[];
  filter: string;
  filterOptions?: string;
  /** The export filter's FilterData (PDF: SelectPdfVersion, PageRange). */
  exportData?: Record<string, string | number | boolean>;
}

/**
 * CSV as UTF-8 with comma and double quote. Tokens: separator 44, quote 34, charset 76 (UTF-8), first line 1,
 * no column formats, language 0, quoted fields not forced to text, special numbers detected, cells as shown,
 * formulas not exported, spaces kept; on import token 11 (sheet) is ignored and token 12 = false does not
 * evaluate formulas: a cell such as `=WEBSERVICE(...)` stays text (no formula injection, nothing fetched).
 */
const CSV_IMPORT = '44,34,76,1,,0,false,true,true,false,false,-1,false';
const CSV_EXPORT = '44,34,76,1,,0,false,true,true,false,false';
const CSV_FILTER = 'Text - txt - csv (StarCalc)';

const FAMILY_INPUTS: Record<DocumentFamily, readonly string[]> = {
  text: LIBREOFFICE_TEXT_INPUTS,
  sheet: LIBREOFFICE_SHEET_INPUTS,
  slide: LIBREOFFICE_SLIDE_INPUTS,
};

const IMPORT_FILTERS: Record<string, { filter: string; options?: string }> = {
  txt: { filter: 'Text (encoded)', options: 'UTF8' },
  // Into Writer itself, not Writer/Web, so every Writer export filter applies.
  html: { filter: 'HTML (StarWriter)' },
  csv: { filter: CSV_FILTER, options: CSV_IMPORT },
};

/** The import filters (name prefixes) that may read each detected input format. */
const ACCEPTED_IMPORTS: Record<string, readonly string[]> = {
  docx: ['MS Word 2007 XML', 'Office Open XML Text'],
  doc: ['MS Word 97', 'MS Word 95', 'MS WinWord 6.0', 'MS WinWord 5'],
  odt: ['writer8'],
  rtf: ['Rich Text Format'],
  xlsx: ['Calc MS Excel 2007 XML', 'Calc Office Open XML'],
  xls: ['MS Excel 97', 'MS Excel 95', 'MS Excel 5.0/95', 'MS Excel 4.0'],
  ods: ['calc8'],
  pptx: ['Impress MS PowerPoint 2007 XML', 'Impress Office Open XML'],
  ppt: ['MS PowerPoint 97'],
  odp: ['impress8'],
};

/** Export filter per family and target; the family's inputs may only go to these targets. */
const EXPORT_FILTERS: Record<DocumentFamily, Record<string, { filter: string; options?: string }>> = {
  text: {
    pdf: { filter: 'writer_pdf_Export' },
    docx: { filter: 'MS Word 2007 XML' },
    odt: { filter: 'writer8' },
    rtf: { filter: 'Rich Text Format' },
    // Charset, line ends, font, language, byte-order mark: none (a BOM is the first "character" of every reader's text).
    txt: { filter: 'Text (encoded)', options: 'UTF8,LF,,,false' },
    // Images as data: URLs inside the one output file, not as files beside it.
    html: { filter: 'HTML (StarWriter)', options: 'EmbedImages' },
  },
  sheet: {
    pdf: { filter: 'calc_pdf_Export' },
    xlsx: { filter: 'Calc MS Excel 2007 XML' },
    ods: { filter: 'calc8' },
    csv: { filter: CSV_FILTER, options: CSV_EXPORT },
    html: { filter: 'HTML (StarCalc)' },
  },
  slide: {
    pdf: { filter: 'impress_pdf_Export' },
    pptx: { filter: 'Impress MS PowerPoint 2007 XML' },
    odp: { filter: 'impress8' },
  },
};

/** SelectPdfVersion of LibreOffice's PDF export: 1, 2, 3 = PDF/A-1b, -2b, -3b. */
const PDFA_VERSIONS = { '1b': 1, '2b': 2, '3b': 3 } as const;

export function familyOf(format: string): DocumentFamily | undefined {
  return (Object.keys(FAMILY_INPUTS) as DocumentFamily[]).find((family) => FAMILY_INPUTS[family].includes(format));
}

/** Pure: the filters converting `from` to `to` with `options`, or undefined when LibreOffice does not offer the pair. */
export function filterPlan(from: string, to: string, options: ConversionOptions = {}): FilterPlan | undefined {
  const family = familyOf(from);
  if (!family || from === to) return undefined;
  const target = Object.hasOwn(EXPORT_FILTERS[family], to) ? EXPORT_FILTERS[family][to] : undefined;
  if (!target) return undefined;
  const source = Object.hasOwn(IMPORT_FILTERS, from) ? IMPORT_FILTERS[from] : undefined;
  const exportData: Record<string, string | number> = {};
  if (to === 'pdf') {
    if (options.pdfa) exportData.SelectPdfVersion = PDFA_VERSIONS[options.pdfa];
    if (options.pages) exportData.PageRange = options.pages;
  }
  return {
    family,
    ...(source ? { importFilter: source.filter, ...(source.options ? { importFilterOptions: source.options } : {}) } : { acceptImports: ACCEPTED_IMPORTS[from] }),
    filter: target.filter,
    ...(target.options ? { filterOptions: target.options } : {}),
    ...(Object.keys(exportData).length > 0 ? { exportData } : {}),
  };
}

/** The targets of each family, as the descriptor lists them (the filter table must cover every one). */
export const FAMILY_OUTPUTS: Record<DocumentFamily, readonly string[]> = {
  text: LIBREOFFICE_TEXT_OUTPUTS,
  sheet: LIBREOFFICE_SHEET_OUTPUTS,
  slide: LIBREOFFICE_SLIDE_OUTPUTS,
};
