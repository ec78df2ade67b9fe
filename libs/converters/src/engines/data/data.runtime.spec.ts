import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { convertData } from './data.runtime.js';
import { DATA_DESCRIPTOR } from './data.descriptor.js';
import { nodeHostedRuntime } from '../../../test/support/node-hosted.js';
import { formatDelimited, parseDelimited } from './delimited-text.js';
import { formatXmlRecords, parseXmlRecords } from './xml-records.js';
import { DATA_SAMPLES } from '../../../testing/data-samples.js';
import { sampleOds, sampleXlsx } from '../../../testing/office-samples.js';
import { convertStep, expectFailure, testContext } from '../../../test/support/test-context.js';

const dir = mkdtempSync(join(tmpdir(), 'fileshift-data-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('delimited text (pure)', () => {
  it('reads quotes, doubled quotes, embedded delimiters and line breaks, CR LF and a byte order mark', () => {
    const table = parseDelimited('\uFEFFname,note\r\n"a, b","say ""hi""\nthere"\r\nc,\r\n', ',');
    expect(table).toEqual({ columns: ['name', 'note'], rows: [['a, b', 'say "hi"\nthere'], ['c', '']] });
    expect(parseDelimited(formatDelimited(table, ','), ',')).toEqual(table);
  });

  it('refuses rows of another width and unclosed quotes, naming the row', () => {
    expect(() => parseDelimited('a,b\n1,2,3\n', ',')).toThrow('row 2 has 3 fields, the header 2');
    expect(() => parseDelimited('a\n"open\n', ',')).toThrow('never closed');
  });
});

describe('XML records (pure)', () => {
  it('round-trips a table, columns that are not XML names included', () => {
    const table = { columns: ['name', 'unit price', '2nd'], rows: [['<a & b>', '1.5', ''], ['c', '2', 'x']] };
    expect(parseXmlRecords(formatXmlRecords(table))).toEqual(table);
  });

  it('reads CDATA, entities and character references; refuses a DOCTYPE and other shapes', () => {
    expect(parseXmlRecords('<r><i><a><![CDATA[x<y]]></a><b>&#65;&amp;&#x42;</b></i></r>')).toEqual({ columns: ['a', 'b'], rows: [['x<y', 'A&B']] });
    expect(() => parseXmlRecords('<!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><r><i><a>&x;</a></i></r>')).toThrow('DOCTYPE');
    expect(() => parseXmlRecords('<r><i id="1"><a>1</a></i></r>')).toThrow('has attributes');
    expect(() => parseXmlRecords('<r><i><a><b>deep</b></a></i></r>')).toThrow('nests deeper');
    expect(() => parseXmlRecords('<r><i><a>1</a></i></r><r/>')).toThrow('more than one root');
    expect(() => parseXmlRecords('<r><i><a>&nbsp;</a></i></r>')).toThrow('the entity &nbsp; is not one XML defines');
    expect(() => parseXmlRecords('<r><i><a>1</a></r>')).toThrow('</r> closes nothing open');
    expect(() => parseXmlRecords('<r><i>text<a>1</a></i></r>')).toThrow('text between records or fields');
  });
});

describe('convertData (pure): faithful or refused', () => {
  it('keeps CSV text as text in JSON ("007" stays "007") and JSON numbers as their text in CSV', () => {
    expect(JSON.parse(convertData('csv', 'json', 'id,n\n007,1\n'))).toEqual([{ id: '007', n: '1' }]);
    expect(convertData('json', 'csv', '[{"id":7,"ok":true,"none":null}]')).toBe('id,ok,none\r\n7,true,\r\n');
  });

  it('takes columns in order of first appearance across records', () => {
    expect(convertData('ndjson', 'csv', '{"a":1}\n{"b":2,"a":3}\n')).toBe('a,b\r\n1,\r\n3,2\r\n');
  });

  it('carries any tree between JSON and YAML, and refuses a tree as a table, naming where', () => {
    const tree = { service: { name: 'fileshift', ports: [80, 443] } };
    expect(JSON.parse(convertData('yaml', 'json', convertData('json', 'yaml', JSON.stringify(tree))))).toEqual(tree);
    expect(() => convertData('json', 'csv', JSON.stringify(tree))).toThrow('a list of records');
    expect(() => convertData('json', 'xml', '[{"a":{"b":1}}]')).toThrow('item 1, key "a" holds a nested object');
  });

  it('writes a table or records as a Markdown table whose header row is the columns, a | escaped and a line break as <br>', () => {
    expect(convertData('json', 'md', '[{"region":"north","sales":12},{"region":"so|uth","sales":7,"note":"a\\nb"}]')).toBe(
      '| region | sales | note |\n| --- | --- | --- |\n| north | 12 |  |\n| so\\|uth | 7 | a<br>b |\n',
    );
    expect(convertData('csv', 'md', 'a,b\n1,2\n')).toBe('| a | b |\n| --- | --- |\n| 1 | 2 |\n');
    expect(() => convertData('yaml', 'md', 'service: {name: x}')).toThrow('a list of records');
    // A Markdown reader that is not ours finds the columns in the header and the records in the body.
    const html = execFileSync('pandoc', ['--from', 'gfm', '--to', 'html'], { input: convertData('xml', 'md', DATA_SAMPLES.xml!), encoding: 'utf8' });
    const records = JSON.parse(convertData('xml', 'json', DATA_SAMPLES.xml!)) as Array<Record<string, string>>;
    expect([...html.matchAll(/<th[^>]*>([^<]*)<\/th>/g)].map(([, cell]) => cell)).toEqual(Object.keys(records[0]!));
    expect(html.match(/<tr/g)).toHaveLength(records.length + 1);
  });

  it('refuses a TSV that would need quoting', () => {
    expect(() => convertData('csv', 'tsv', 'a\n"x\ty"\n')).toThrow('tab or a line break');
  });

  it('round-trips every sample through every format back to the same records', () => {
    const formats = ['csv', 'tsv', 'json', 'ndjson', 'yaml', 'xml'] as const;
    const expected = JSON.parse(convertData('tsv', 'json', DATA_SAMPLES.tsv!));
    for (const via of formats) expect(JSON.parse(convertData(via, 'json', convertData('tsv', via, DATA_SAMPLES.tsv!))), via).toEqual(expected);
  });
});

describe('DataFormatsRuntime', () => {
  const runtime = nodeHostedRuntime(DATA_DESCRIPTOR, 'data');

  it('writes the first sheet of an xlsx or ods as records whose numbers stay numbers, in json, JSON Lines and yaml', async () => {
    const xlsx = join(dir, 'sheet.xlsx');
    writeFileSync(xlsx, sampleXlsx());
    const ods = join(dir, 'sheet.ods');
    writeFileSync(ods, sampleOds());
    const [json] = (await convertStep(runtime, { inputPath: xlsx, from: 'xlsx', to: 'json' }, dir)) as [string];
    expect(JSON.parse(readFileSync(json, 'utf8'))).toEqual([{ alpha: 1, beta: 2 }]);
    const [lines] = (await convertStep(runtime, { inputPath: ods, from: 'ods', to: 'ndjson' }, dir)) as [string];
    expect(readFileSync(lines, 'utf8')).toBe('{"alpha":1,"beta":2}\n');
    const [yaml] = (await convertStep(runtime, { inputPath: ods, from: 'ods', to: 'yaml' }, dir)) as [string];
    expect(readFileSync(yaml, 'utf8')).toBe('- alpha: 1\n  beta: 2\n');
  });

  it('converts a file and answers with the spec failure types', async () => {
    const json = join(dir, 'records.json');
    writeFileSync(json, DATA_SAMPLES.json!);
    const [yaml] = (await convertStep(runtime, { inputPath: json, from: 'json', to: 'yaml' }, dir)) as [string];
    expect(readFileSync(yaml, 'utf8')).toContain('- name: alpha');

    const xxe = join(dir, 'xxe.xml');
    writeFileSync(xxe, '<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><r><i><a>&x;</a></i></r>');
    await expectFailure(convertStep(runtime, { inputPath: xxe, from: 'xml', to: 'json' }, dir), 'security_rejected', dir);

    const nested = join(dir, 'nested.json');
    writeFileSync(nested, '{"a": {"b": 1}}');
    const shape = await expectFailure(convertStep(runtime, { inputPath: nested, from: 'json', to: 'csv' }, dir), 'unsupported_or_corrupt_input', dir);
    expect(shape.message).toContain('a list of records');

    const latin1 = join(dir, 'latin1.csv');
    writeFileSync(latin1, Buffer.from([0x61, 0x0a, 0xe9, 0x0a]));
    expect((await expectFailure(convertStep(runtime, { inputPath: latin1, from: 'csv', to: 'json' }, dir), 'unsupported_or_corrupt_input', dir)).message).toContain('not UTF-8');

    const notSheet = join(dir, 'text.xlsx');
    writeFileSync(notSheet, 'just text');
    expect((await expectFailure(convertStep(runtime, { inputPath: notSheet, from: 'xlsx', to: 'json' }, dir), 'unsupported_or_corrupt_input', dir)).message).toContain('not a ZIP');

    const big = join(dir, 'big.csv');
    writeFileSync(big, 'a\n' + '1\n'.repeat(1000));
    await expectFailure(runtime.convert({ inputPath: big, outputDir: dir, from: 'csv', to: 'json', options: {} }, testContext(runtime, dir, { maxInputBytes: 100 })), 'file_too_large', dir);
  });
});
