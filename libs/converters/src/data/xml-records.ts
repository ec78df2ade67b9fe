import { DataShapeError, type Table } from './delimited-text.js';

const NAME = /^[A-Za-z_][\w.-]*$/;
const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
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

function decode(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#\d+|\w+);/g, (whole, entity: string) => {
    if (entity.startsWith('#x')) return String.fromCodePoint(Number.parseInt(entity.slice(2), 16));
    if (entity.startsWith('#')) return String.fromCodePoint(Number.parseInt(entity.slice(1), 10));
    const known = ENTITIES[entity];
    if (known === undefined) throw new DataShapeError(`the entity &${entity}; is not one XML defines`);
    return known;
  });
}

/**
 * Pure: XML records as a table — a root element holding repeated record elements, each holding fields of
 * text (as `formatXmlRecords` writes them, and as most record exports do). A DOCTYPE is refused (no entity
 * of ours or of anyone's is ever expanded), and so is any other shape (attributes on records, mixed content,
 * deeper nesting), naming what was found.
 */
export function parseXmlRecords(xml: string): Table {
  const body = xml
    .replace(/^\uFEFF/, '')
    .replace(/<\?[\s\S]*?\?>/g, '')
    .replace(/<!--[\s\S]*?-->/g, '');
  if (/<!DOCTYPE/i.test(body)) throw new DataShapeError('a DOCTYPE (entity declarations) is not accepted', true);
  const tokens = body.match(/<!\[CDATA\[[\s\S]*?\]\]>|<[^>]*>|[^<]+/g) ?? [];
  // One pass over the tokens: depth 0 root, 1 records, 2 fields, 3 is too deep.
  const columns: string[] = [];
  const seen = new Set<string>();
  const records: Array<Map<string, string>> = [];
  const open: string[] = [];
  let record: Map<string, string> | undefined;
  let fieldName: string | undefined;
  let text = '';
  let rootSeen = false;
  for (const token of tokens) {
    if (token.startsWith('<![CDATA[')) {
      if (open.length !== 3) throw new DataShapeError('text outside a field');
      text += token.slice(9, -3);
    } else if (token.startsWith('</')) {
      const name = token.slice(2, -1).trim();
      if (open.pop() !== name) throw new DataShapeError(`</${name}> closes nothing open`);
      if (open.length === 2 && fieldName !== undefined) {
        record!.set(fieldName, decode(text));
        fieldName = undefined;
      } else if (open.length === 1) record = undefined;
    } else if (token.startsWith('<')) {
      const selfClosing = token.endsWith('/>');
      const match = /^<([A-Za-z_][\w.:-]*)((?:\s+[\w.:-]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*\/?>$/.exec(token);
      if (!match) throw new DataShapeError(`${token.slice(0, 40)} is not an XML element`);
      const [, name, attributes] = match as unknown as [string, string, string];
      if (open.length === 0) {
        if (rootSeen) throw new DataShapeError('more than one root element');
        rootSeen = true;
      } else if (open.length === 1) {
        if (attributes.trim()) throw new DataShapeError(`the record element <${name}> has attributes`);
        record = new Map();
        records.push(record);
      } else if (open.length === 2) {
        const named = /^\s*name\s*=\s*(?:"([^"]*)"|'([^']*)')\s*$/.exec(attributes);
        if (attributes.trim() && !(name === 'field' && named)) throw new DataShapeError(`the field <${name}> has attributes`);
        fieldName = named ? decode(named[1] ?? named[2] ?? '') : name;
        if (!seen.has(fieldName)) {
          seen.add(fieldName);
          columns.push(fieldName);
        }
        text = '';
        if (selfClosing) {
          record!.set(fieldName, '');
          fieldName = undefined;
          continue;
        }
      } else throw new DataShapeError(`<${name}> nests deeper than records of fields`);
      if (!selfClosing) open.push(name);
    } else if (open.length === 3) text += token;
    else if (token.trim()) throw new DataShapeError(open.length === 0 ? 'text outside the root element' : 'text between records or fields');
  }
  if (open.length > 0) throw new DataShapeError(`<${open.at(-1)}> is never closed`);
  if (!rootSeen) throw new DataShapeError('there is no root element');
  return { columns, rows: records.map((fields) => columns.map((column) => fields.get(column) ?? '')) };
}
