import { DataShapeError, type Table } from './delimited-text.js';

export type Scalar = string | number | boolean | null;
export type DataRecord = Record<string, Scalar>;

/**
 * Pure: a list of flat records (JSON, JSON Lines, YAML) as a table: columns in order of first appearance, a
 * missing key an empty field. Anything that is not an array of objects of scalars cannot be a table without
 * inventing a layout, so it is refused, naming where.
 */
export function recordsToTable(value: unknown): Table {
  if (!Array.isArray(value)) throw new DataShapeError('a table needs a list of records (an array of objects) at the top');
  const columns: string[] = [];
  const seen = new Set<string>();
  value.forEach((record, index) => {
    if (record === null || typeof record !== 'object' || Array.isArray(record)) throw new DataShapeError(`item ${index + 1} is not a record (an object)`);
    for (const [key, field] of Object.entries(record)) {
      if (field !== null && typeof field === 'object') throw new DataShapeError(`item ${index + 1}, key "${key}" holds a nested ${Array.isArray(field) ? 'list' : 'object'}, which a table cannot hold`);
      if (!seen.has(key)) {
        seen.add(key);
        columns.push(key);
      }
    }
  });
  const text = (field: Scalar | undefined) => (field === undefined || field === null ? '' : String(field));
  return { columns, rows: (value as DataRecord[]).map((record) => columns.map((column) => text(record[column]))) };
}

/** Pure: a table as records, every value text (a CSV says nothing of types; "007" stays "007"). */
export function tableToRecords(table: Table): DataRecord[] {
  return table.rows.map((row) => Object.fromEntries(table.columns.map((column, i) => [column, row[i] ?? ''])));
}
