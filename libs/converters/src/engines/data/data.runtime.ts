import { readFile, stat, writeFile } from 'node:fs/promises';
import { stringify as stringifyYaml, parse as parseYaml } from 'yaml';
import { ConversionError } from '../../platform/conversion-error.js';
import { DATA_DESCRIPTOR, DATA_FORMATS, DATA_WRITES, SPREADSHEET_SOURCES, TYPED_RECORDS } from './data.descriptor.js';
import { DataShapeError, formatDelimited, formatMarkdownTable, parseDelimited, type Table } from './delimited-text.js';
import { recordsToTable, tableToRecords } from './records.js';
import { formatXmlRecords, parseXmlRecords } from './xml-records.js';
import { readSpreadsheetRecords, type Spreadsheet } from './spreadsheet-package.js';
import { PackageError, packageFailure } from '../../shared/zip-entries.js';
import { type EngineAvailability, type EngineRuntime, singleOutput, type StepContext, type StepOutcome, type StepRequest } from '../../platform/engine-runtime.js';

type DataFormat = (typeof DATA_FORMATS)[number];
type DataTarget = (typeof DATA_WRITES)[number];
/** Formats that hold any data tree: between these the tree goes across whole. */
const TREES = new Set<DataFormat>(['json', 'yaml']);

/** Pure: the input text as a table, or (json, yaml) as the data tree it holds. */
function read(from: DataFormat, text: string): unknown {
  switch (from) {
    case 'csv':
      return parseDelimited(text, ',');
    case 'tsv':
      return parseDelimited(text, '\t');
    case 'xml':
      return parseXmlRecords(text);
    case 'json':
      return JSON.parse(text);
    case 'ndjson':
      return text.split(/\r?\n/).flatMap((line, index) => {
        if (!line.trim()) return [];
        try {
          return [JSON.parse(line)];
        } catch {
          throw new DataShapeError(`line ${index + 1} is not JSON`);
        }
      });
    case 'yaml':
      // One document; YAML-only types (dates, binary) are read as JSON would hold them (strings).
      return parseYaml(text, { schema: 'core', maxAliasCount: 100 });
  }
}

const isTable = (value: unknown): value is Table => typeof value === 'object' && value !== null && 'columns' in value && 'rows' in value && !Array.isArray(value);

/** Pure: `value` (a table or a tree read from `from`) written as `to`. */
export function convertData(from: DataFormat, to: DataTarget, text: string): string {
  const value = read(from, text);
  if (TREES.has(from) && TREES.has(to as DataFormat)) return to === 'json' ? `${JSON.stringify(value, null, 2)}\n` : stringifyYaml(value);
  const table = isTable(value) && !TREES.has(from) && from !== 'ndjson' ? value : recordsToTable(value);
  switch (to) {
    case 'csv':
      return formatDelimited(table, ',');
    case 'tsv':
      if (table.rows.some((row) => row.some((field) => /[\t\r\n]/.test(field)))) throw new DataShapeError('a field holds a tab or a line break, which TSV cannot carry');
      return formatDelimited(table, '\t');
    case 'xml':
      return formatXmlRecords(table);
    case 'json':
      return `${JSON.stringify(tableToRecords(table), null, 2)}\n`;
    case 'ndjson':
      return tableToRecords(table).map((record) => JSON.stringify(record)).join('\n') + '\n';
    case 'yaml':
      return stringifyYaml(tableToRecords(table));
    case 'md':
      return formatMarkdownTable(table);
  }
}

/** Pure: records (a spreadsheet's, typed) written as json, JSON Lines or yaml. */
function formatRecords(records: readonly unknown[], to: string): string {
  if (to === 'ndjson') return records.map((record) => JSON.stringify(record)).join('\n') + '\n';
  return to === 'yaml' ? stringifyYaml(records) : `${JSON.stringify(records, null, 2)}\n`;
}

/** Data files, converted in process (no external binary): csv tsv json ndjson yaml xml, and tables to Markdown. */
export class DataFormatsRuntime implements EngineRuntime {
  readonly descriptor = DATA_DESCRIPTOR;

  async probe(): Promise<EngineAvailability> {
    return { available: true, version: 'in process' };
  }

  async convert(request: StepRequest, context: StepContext): Promise<StepOutcome> {
    const from = request.from as DataFormat;
    const to = request.to as DataTarget;
    if ((SPREADSHEET_SOURCES as readonly string[]).includes(from) && TYPED_RECORDS.has(to)) return this.convertSpreadsheet(request, context);
    if (!DATA_FORMATS.includes(from)) throw new ConversionError('unsupported_or_corrupt_input', `This engine does not read ${request.from}.`);
    if (!DATA_WRITES.includes(to)) throw new ConversionError('unsupported_output_format', `This engine does not write ${request.to}.`);
    context.signal.throwIfAborted();
    const size = (await stat(request.inputPath)).size;
    const maxInput = context.limits.maxInputBytes;
    if (maxInput !== undefined && size > maxInput) throw new ConversionError('file_too_large', `Data files are converted up to ${maxInput} bytes; this one has ${size}.`);
    let output: string;
    try {
      output = convertData(from, to, new TextDecoder('utf-8', { fatal: true }).decode(await readFile(request.inputPath)));
    } catch (error) {
      if (error instanceof DataShapeError && error.unsafe) throw new ConversionError('security_rejected', `The input is refused: ${error.message}.`);
      const reason = error instanceof DataShapeError || error instanceof SyntaxError || (error as Error).name === 'YAMLParseError' ? (error as Error).message.split('\n')[0] : 'the text is not UTF-8';
      throw new ConversionError('unsupported_or_corrupt_input', `The input cannot be converted from ${from} to ${to} faithfully: ${reason}.`, false, (error as Error).message);
    }
    return this.write(output, request, context);
  }

  /** The first sheet of an xlsx or ods as records of its cells' types. */
  private async convertSpreadsheet(request: StepRequest, context: StepContext): Promise<StepOutcome> {
    context.signal.throwIfAborted();
    const { limits } = context;
    const size = (await stat(request.inputPath)).size;
    if (limits.maxInputBytes !== undefined && size > limits.maxInputBytes) throw new ConversionError('file_too_large', `Spreadsheets are read up to ${limits.maxInputBytes} bytes; this one has ${size}.`);
    let records: unknown[];
    try {
      records = readSpreadsheetRecords(request.from as Spreadsheet, await readFile(request.inputPath), { maxEntries: limits.maxEntries ?? 20_000, maxInflatedBytes: limits.maxExpandedBytes ?? 256 * 1024 * 1024 });
    } catch (error) {
      if (error instanceof DataShapeError) throw new ConversionError(/more than \d+ (cells|columns)/.test(error.message) ? 'file_too_large' : 'unsupported_or_corrupt_input', `The spreadsheet could not be read: ${error.message}.`);
      if (!(error instanceof PackageError)) throw error;
      throw new ConversionError(packageFailure(error), `The spreadsheet could not be read: ${error.message}.`);
    }
    return this.write(formatRecords(records, request.to), request, context);
  }

  private async write(output: string, request: StepRequest, context: StepContext): Promise<StepOutcome> {
    if (Buffer.byteLength(output) > context.limits.maxOutputBytes) throw new ConversionError('file_too_large', `The output would be larger than ${context.limits.maxOutputBytes} bytes.`);
    const outputPath = singleOutput(request.outputDir, request.to);
    await writeFile(outputPath, output);
    context.onProgress?.(100);
    return { files: [outputPath] };
  }
}
