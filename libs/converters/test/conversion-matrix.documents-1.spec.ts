import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ENGINE_DESCRIPTORS } from '../src/engines/engines.js';
import { odf, pdfText } from '../testing/index.js';
import { advertisedPairs, availableEngines, convertSample, graph, MATRIX_SHARDS, matrixShardOf, proveShard, sampleOf, setUpMatrix, shardPairs, writeSample } from './support/conversion-matrix.js';

// The first documents shard of the conversion matrix (support/conversion-matrix.ts says what the matrix proves and how), and
// what holds for the whole matrix: every engine here, every pair in one shard.
setUpMatrix('documents-1', { extraSources: ['pdf', 'odt'] });

describe('the conversion matrix, documents-1: every pair of the shard, from a real sample, checked by another decoder', () => {
  it('every engine of this build is installed here', () => {
    expect([...availableEngines().keys()].sort()).toEqual(ENGINE_DESCRIPTORS.map((descriptor) => descriptor.id).sort());
  });

  it('puts every advertised pair in exactly one shard, and advertises documents, PDF, images, audio, video and subtitles', () => {
    const sharded = MATRIX_SHARDS.flatMap((shard) => shardPairs(shard));
    expect(sharded).toHaveLength(advertisedPairs().length);
    expect(new Set(sharded.map(([source, target]) => `${source}→${target}`)).size).toBe(sharded.length);
    for (const shard of MATRIX_SHARDS) expect(shardPairs(shard).length, shard).toBeGreaterThan(20);
    // A graph that lost a family would still pass each shard.
    expect(advertisedPairs().length).toBeGreaterThanOrEqual(300);
    expect(matrixShardOf('wav', 'mp3')).toMatch(/^audio-/);
    expect(matrixShardOf('mp4', 'mp3')).toMatch(/^video-/);
    // Each shard is proven by a file of its own, and no file proves a shard that is not there.
    const files = readdirSync(import.meta.dirname).filter((name) => name.startsWith('conversion-matrix.'));
    expect(files.sort()).toEqual(MATRIX_SHARDS.map((shard) => `conversion-matrix.${shard}.spec.ts`).sort());
  });

  it('proves every advertised pair', () => proveShard('documents-1'), 1_200_000);

  it('makes pdf → md in one poppler step whose words are the words pdftotext reads, in order', async () => {
    const plan = graph.plan('pdf', 'md')!;
    expect(plan.steps.map((step) => `${step.engine} ${step.from}→${step.to}`)).toEqual(['poppler pdf→md']);
    const pdf = sampleOf('pdf')!.path;
    const { files } = await convertSample('pdf', 'md', 'pdf-to-md-words');
    const words = (text: string) => text.match(/[\p{L}\p{N}]+/gu) ?? [];
    const markdown = readFileSync(files[0]!, 'utf8');
    expect(words(markdown)).toEqual(words(pdfText(pdf)));
    expect(words(markdown).length).toBeGreaterThan(5);
  });

  it('keeps an ODT table\'s header row in every markup target (pandoc\'s own ODT reader drops it, text and all)', async () => {
    const cell = (text: string) => `<table:table-cell office:value-type="string"><text:p>${text}</text:p></table:table-cell>`;
    const row = (...cells: string[]) => `<table:table-row>${cells.map(cell).join('')}</table:table-row>`;
    const odt = writeSample(
      'header-rows.odt',
      odf('text', `<table:table table:name="T1"><table:table-column table:number-columns-repeated="2"/><table:table-header-rows>${row('region', 'sales')}</table:table-header-rows>${row('north', '12')}${row('south', '7')}</table:table>`),
    );
    for (const target of ['md', 'rst', 'org', 'tex', 'ipynb']) {
      const { files } = await convertSample('odt', target, `odt-header-rows-${target}`, odt.path);
      const text = readFileSync(files[0]!, 'utf8');
      expect(text.indexOf('region'), target).toBeGreaterThanOrEqual(0);
      expect(text.indexOf('region'), target).toBeLessThan(text.indexOf('sales'));
      expect(text.indexOf('sales'), target).toBeLessThan(text.indexOf('north'));
    }
  });
});
