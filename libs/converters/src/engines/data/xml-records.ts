import { parseXmlTree, type XmlElement } from '../../shared/xml/xml-tree.js';
import { XmlSyntaxError } from '../../shared/xml/xml-syntax-error.js';
import { DataShapeError, type Table } from './delimited-text.js';

const NAME = /^[A-Za-z_][\w.-]*$/;
const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * Pure: a table as XML records — `<records><record><name>…</name>…</record>…</records>`. A column whose name
 * is not an XML name (spaces, leading digits) is written as `<field name="…">`.
 */
export function formatXmlRecords(table: Table): string {
  const field = (column: string, value: string) =>
    NAME.test(column) && !/^xml/i.test(column) ? `<${column}>${escape(value)}</${column}>` : `<field name="${escape(column)}">${escape(value)}</field>`;
  const rows = table.rows.map((row) => `  <record>${table.columns.map((column, i) => field(column, row[i] ?? '')).join('')}</record>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<records>\n${rows.join('\n')}\n</records>\n`;
}

/** The shared reader's verdict as the data engine's: the same message, a DOCTYPE refused as unsafe. */
function readTree(xml: string): XmlElement {
  try {
    return parseXmlTree(xml);
  } catch (error) {
    if (error instanceof XmlSyntaxError) throw new DataShapeError(error.message, error.code === 'doctype');
    throw error;
  }
}

/** Text between records or fields may only be whitespace. */
function elementsOf(parent: XmlElement): XmlElement[] {
  return parent.children.filter((child): child is XmlElement => {
    if (typeof child !== 'string') return true;
    if (child.trim()) throw new DataShapeError('text between records or fields');
    return false;
  });
}

/** A field's column: its element name, or the `name` attribute of a `<field name="…">`; no other attribute. */
function columnOf(field: XmlElement): string {
  const attributes = Object.keys(field.attributes);
  if (field.name === 'field' && attributes.length === 1 && attributes[0] === 'name') return field.attributes.name!;
  if (attributes.length > 0) throw new DataShapeError(`the field <${field.name}> has attributes`);
  return field.name;
}

function textOf(field: XmlElement): string {
  return field.children
    .map((child) => {
      if (typeof child !== 'string') throw new DataShapeError(`<${child.name}> nests deeper than records of fields`);
      return child;
    })
    .join('');
}

/**
 * Pure: XML records as a table — a root element holding repeated record elements, each holding fields of
 * text (as `formatXmlRecords` writes them, and as most record exports do). A DOCTYPE is refused (no entity
 * of ours or of anyone's is ever expanded), and so is any other shape (attributes on records, mixed content,
 * deeper nesting), naming what was found.
 */
export function parseXmlRecords(xml: string): Table {
  const columns: string[] = [];
  const seen = new Set<string>();
  const records: Array<Map<string, string>> = [];
  for (const recordElement of elementsOf(readTree(xml))) {
    if (Object.keys(recordElement.attributes).length > 0) throw new DataShapeError(`the record element <${recordElement.name}> has attributes`);
    const record = new Map<string, string>();
    records.push(record);
    for (const field of elementsOf(recordElement)) {
      const column = columnOf(field);
      if (!seen.has(column)) {
        seen.add(column);
        columns.push(column);
      }
      record.set(column, textOf(field));
    }
  }
  return { columns, rows: records.map((fields) => columns.map((column) => fields.get(column) ?? '')) };
}
