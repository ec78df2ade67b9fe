// Rewrites the conversion tables of docs/formats.md from the graph of every engine of this build.
import { readFileSync, writeFileSync } from 'node:fs';
import { ConversionGraph, conversionTablesMarkdown, ENGINE_DESCRIPTORS, OPTION_SCHEMAS, withConversionTables } from '@fileshift/converters';

const path = new URL('../../docs/formats.md', import.meta.url);
const page = readFileSync(path, 'utf8');
const updated = withConversionTables(page, conversionTablesMarkdown(new ConversionGraph(ENGINE_DESCRIPTORS), OPTION_SCHEMAS));
if (updated === page) console.log('docs/formats.md conversion tables: already current (or no block to fill)');
else {
  writeFileSync(path, updated);
  console.log('docs/formats.md conversion tables: rewritten');
}
