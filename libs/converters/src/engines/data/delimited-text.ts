/** A table as text files carry it: a header row of column names, then rows of the same width, all text. */
export interface Table {
  columns: string[];
  rows: string[][];
}

/** Thrown by the pure data code: the input cannot be read as the claimed format, or not faithfully as a table. */
export class DataShapeError extends Error {
  constructor(
    message: string,
    /** Refused for safety (an XML DOCTYPE), not for its shape. */
    readonly unsafe = false,
  ) {
    super(message);
  }
}

/**
 * Pure: RFC 4180 delimited text (quotes, doubled quotes, CR LF or LF, a UTF-8 byte order mark) as a table.
 * The first row names the columns; every row must have as many fields.
 */
export function parseDelimited(text: string, delimiter: ',' | '\t'): Table {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const endRecord = () => {
    record.push(field);
    if (!(record.length === 1 && record[0] === '')) records.push(record);
    record = [];
    field = '';
  };
  for (; i < text.length; i++) {
    const char = text[i]!;
    if (quoted) {
      if (char !== '"') field += char;
      else if (text[i + 1] === '"') field += text[i++];
      else quoted = false;
    } else if (char === '"' && field === '') quoted = true;
    else if (char === delimiter) {
      record.push(field);
      field = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[i + 1] === '\n') i++;
      endRecord();
    } else field += char;
  }
  if (quoted) throw new DataShapeError('a quoted field is never closed');
  if (field !== '' || record.length > 0) endRecord();
  const [columns, ...rows] = records;
  if (!columns) throw new DataShapeError('there is no header row');
  rows.forEach((row, index) => {
    if (row.length !== columns.length) throw new DataShapeError(`row ${index + 2} has ${row.length} fields, the header ${columns.length}`);
  });
  return { columns, rows };
}

/**
 * Pure: a table as a GitHub-flavoured Markdown pipe table, its columns as the header row; a `|` in a field escaped,
 * a line break as `<br>` (a row is one line).
 */
export function formatMarkdownTable(table: Table): string {
  const cell = (value: string) => value.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n|\r/g, '<br>');
  const row = (fields: readonly string[]) => `| ${fields.map(cell).join(' | ')} |`;
  return [row(table.columns), row(table.columns.map(() => '---')), ...table.rows.map(row)].join('\n') + '\n';
}

/** Pure: a table as delimited text, fields quoted only where they must be, CR LF line ends (RFC 4180). */
export function formatDelimited(table: Table, delimiter: ',' | '\t'): string {
  const quote = (value: string) => (/["\r\n]/.test(value) || value.includes(delimiter) ? `"${value.replace(/"/g, '""')}"` : value);
  return [table.columns, ...table.rows].map((row) => row.map(quote).join(delimiter)).join('\r\n') + '\r\n';
}
