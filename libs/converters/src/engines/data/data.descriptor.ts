import { allPairs, type EngineDescriptor } from '../../platform/engine-descriptor.js';

/** Tables and records: each reads as a table (or, json and yaml between themselves, as any data tree). */
export const DATA_FORMATS = ['csv', 'tsv', 'json', 'ndjson', 'yaml', 'xml'] as const;
/** What it writes: the data formats, and a table as Markdown. */
export const DATA_WRITES = [...DATA_FORMATS, 'md'] as const;
const RECOMMENDED = new Set(['csv', 'json', 'xlsx']);
/** Records that hold typed values; from a table every value is text (a CSV says nothing of types). */
export const TYPED_RECORDS: ReadonlySet<string> = new Set(['json', 'ndjson', 'yaml']);
const TABLES = new Set(['csv', 'tsv']);
/** Spreadsheets read by our own code to records of their cells' types (xls and the rest reach it as xlsx). */
export const SPREADSHEET_SOURCES = ['xlsx', 'ods'] as const;

/**
 * Data files to each other where the conversion is faithful: a table (csv, tsv) to a list of records (json,
 * JSON Lines, yaml, xml) and back; json and yaml to each other whatever their shape; a table or a list of records
 * to a Markdown table whose header is its columns; the first sheet of an xlsx or ods to records that keep its
 * cells' types. In process (no external binary); other spreadsheets reach it through LibreOffice (xls → xlsx → json).
 */
export const DATA_DESCRIPTOR: EngineDescriptor = {
  id: 'data',
  engineClass: 'documents',
  description: `data (in process): ${DATA_FORMATS.join(' ')}, each to each where faithful; ${SPREADSHEET_SOURCES.join(' ')} → typed records`,
  cost: 1,
  // Markdown of an uploaded data file only: a spreadsheet keeps every sheet on its way through LibreOffice's HTML.
  // A spreadsheet's cell types are lost on its way through a table (only said where the source had them: canLose).
  pairs: [
    ...allPairs(DATA_FORMATS, DATA_WRITES, (to) => ({ recommended: RECOMMENDED.has(to), ...(to === 'md' ? { firstStepOnly: true } : {}) })).map((pair) =>
      TABLES.has(pair.from) && TYPED_RECORDS.has(pair.to) ? { ...pair, losses: ['cell-types' as const] } : pair,
    ),
    ...SPREADSHEET_SOURCES.flatMap((from) => [...TYPED_RECORDS].map((to) => ({ from, to, recommended: RECOMMENDED.has(to), lastStepOnly: true }))),
  ],
  // Parsed in memory: the input is capped well below the upload limit's worst case, a package's parts too.
  limits: { timeoutMs: 60_000, maxOutputBytes: 256 * 1024 * 1024, maxInputBytes: 64 * 1024 * 1024, maxEntries: 20_000, maxExpandedBytes: 256 * 1024 * 1024 },
  debianPackages: [],
};
