// Rewrites the README's conversion tables from the graph of every engine of this build.
import { readFileSync, writeFileSync } from 'node:fs';
import { ConversionGraph, conversionTablesMarkdown, ENGINE_DESCRIPTORS, withConversionTables } from '@fileshift/converters';

const path = new URL('../../README.md', import.meta.url);
const readme = readFileSync(path, 'utf8');
const updated = withConversionTables(readme, conversionTablesMarkdown(new ConversionGraph(ENGINE_DESCRIPTORS)));
if (updated === readme) console.log('README conversion tables: already current (or no block to fill)');
else {
  writeFileSync(path, updated);
  console.log('README conversion tables: rewritten');
}
