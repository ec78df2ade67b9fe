import { execFileSync } from 'node:child_process';
import { expect } from 'vitest';
import { SAMPLE_CELLS } from './office-samples.js';

// Data samples as other tools write them (pretty-printed JSON, YAML with a comment, XML with a declaration and
// CDATA), each holding the records name/value of SAMPLE_CELLS.

export const DATA_SAMPLES: Record<string, string> = {
  tsv: `name\tvalue\n${SAMPLE_CELLS[0]}\t1\n${SAMPLE_CELLS[1]}\t2\n`,
  json: JSON.stringify([{ name: SAMPLE_CELLS[0], value: 1 }, { name: SAMPLE_CELLS[1], value: 2 }], null, 4),
  ndjson: `{"name":"${SAMPLE_CELLS[0]}","value":1}\n{"name":"${SAMPLE_CELLS[1]}","value":2}\n`,
  yaml: `# exported records\n- name: ${SAMPLE_CELLS[0]}\n  value: 1\n- name: ${SAMPLE_CELLS[1]}\n  value: 2\n`,
  xml: `<?xml version="1.0" encoding="UTF-8"?>\n<!-- exported records -->\n<rows>\n  <row><name>${SAMPLE_CELLS[0]}</name><value>1</value></row>\n  <row><name><![CDATA[${SAMPLE_CELLS[1]}]]></name><value>2</value></row>\n</rows>\n`,
};
export const DATA_TARGETS: ReadonlySet<string> = new Set(['tsv', 'json', 'ndjson', 'yaml', 'xml']);

/**
 * Python's standard readers (and PyYAML), not ours: the records of a data file as JSON, one list of objects.
 * XML records are the children of the root, their fields the grandchildren (or <field name=…>).
 */
const READ_RECORDS = `
import csv, json, sys, xml.etree.ElementTree as ET
fmt, path = sys.argv[1], sys.argv[2]
text = open(path, encoding='utf-8').read()
if fmt == 'tsv': records = list(csv.DictReader(text.splitlines(), delimiter='\\t'))
elif fmt == 'json': records = json.loads(text)
elif fmt == 'ndjson': records = [json.loads(line) for line in text.splitlines() if line.strip()]
elif fmt == 'yaml':
    import yaml
    records = yaml.safe_load(text)
elif fmt == 'xml': records = [{(f.get('name') or f.tag): (f.text or '') for f in r} for r in ET.fromstring(text)]
print(json.dumps(records))
`;

/**
 * Checks a data output with Python's readers: a list of records holding `marker` as a value, or as a column
 * name (a spreadsheet's first row names the columns). Returns the records read.
 */
export function expectRecords(path: string, format: string, marker: string): Array<Record<string, unknown>> {
  const records = JSON.parse(execFileSync('/usr/bin/python3', ['-c', READ_RECORDS, format, path], { encoding: 'utf8' })) as Array<Record<string, unknown>>;
  expect(Array.isArray(records)).toBe(true);
  expect(records.length).toBeGreaterThan(0);
  expect(records.flatMap((record) => [...Object.keys(record), ...Object.values(record).map(String)])).toContain(marker);
  return records;
}
