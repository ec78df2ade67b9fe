import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConversionGraph } from '../src/platform/conversion-graph.js';
import { conversionTablesMarkdown, TABLES_BEGIN, TABLES_END, withConversionTables } from '../src/platform/conversion-tables.js';
import { ENGINE_DESCRIPTORS } from '../src/engines/engines.js';
import { OPTION_SCHEMAS } from '../src/engines/option-catalogue.js';

const graph = new ConversionGraph(ENGINE_DESCRIPTORS);

describe('the conversion tables of docs/formats.md', () => {
  it('list every conversion of the graph once, by category of the source, with the total', () => {
    const tables = conversionTablesMarkdown(graph);
    const total = graph.sourceFormats().reduce((count, source) => count + graph.targetsOf(source).length, 0);
    expect(tables).toContain(`**${total} conversions**`);
    const counted = [...tables.matchAll(/^\| [\w.]+ \| .* \| (\d+) \|$/gm)].reduce((sum, match) => sum + Number(match[1]), 0);
    expect(counted).toBe(total);
    expect(tables).toMatch(/\| docx \| .*\*\*pdf\*\*/);
  });

  it('list every option with the conversions that take it, and every join', () => {
    const tables = conversionTablesMarkdown(graph, OPTION_SCHEMAS);
    expect(tables).toMatch(/\| `rotate` \| .* \| on its own \(same format\): .*\bpdf\b/);
    expect(tables).toMatch(/\| `trim` \| .* \| on its own \(same format\): .*\bmp3\b/);
    expect(tables).toMatch(/\| pdf \| qpdf \| pdf, and what converts to them/);
    expect(tables).toMatch(/\| zip \| archives \| any file, as it is \|/);
  });

  it('are current in docs/formats.md (npm run docs:formats rewrites them)', () => {
    const readme = readFileSync(new URL('../../../docs/formats.md', import.meta.url), 'utf8');
    expect(readme).toContain(TABLES_BEGIN);
    expect(readme).toContain(TABLES_END);
    expect(withConversionTables(readme, conversionTablesMarkdown(graph, OPTION_SCHEMAS))).toBe(readme);
  });
});
