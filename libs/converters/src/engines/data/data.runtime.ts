import { readFile, stat, writeFile } from 'node:fs/promises';
import { stringify as stringifyYaml, parse as parseYaml } from 'yaml';
import { ConversionError } from '../../platform/conversion-error.js';
import { DATA_DESCRIPTOR, DATA_FORMATS, DATA_WRITES } from './data.descriptor.js';
import { DataShapeError, formatDelimited, formatMarkdownTable, parseDelimited, type Table } from './delimited-text.js';
import { recordsToTable, tableToRecords } from './records.js';
import { formatXmlRecords, parseXmlRecords } from './xml-records.js';
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

/** Data files, converted in process (no external binary): csv tsv json ndjson yaml xml, and tables to Markdown. */
export class DataFormatsRuntime implements EngineRuntime {
  readonly descriptor = DATA_DESCRIPTOR;

  async probe(): Promise<EngineAvailability> {
    return { available: true, version: 'in process' };
  }

  async convert(request: StepRequest, context: StepContext): Promise<StepOutcome> {
    const from = request.from as DataFormat;
    const to = request.to as DataTarget;
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
    if (Buffer.byteLength(output) > context.limits.maxOutputBytes) throw new ConversionError('file_too_large', `The output would be larger than ${context.limits.maxOutputBytes} bytes.`);
    const outputPath = singleOutput(request.outputDir, to);
    await writeFile(outputPath, output);
    context.onProgress?.(100);
    return { files: [outputPath] };
  }
}
