import { ConversionGraph, ENGINE_DESCRIPTORS } from '@fileshift/converters';
import { CONTENT_LOSSES } from '@fileshift/formats';
import { describe, expect, it } from 'vitest';
import { formatsView } from './formats-view.js';
import { FormatCatalogueSchema } from './formats-view.schemas.js';

describe('formatsView: every source format of a graph, its targets and their options', () => {
  const all = formatsView(new ConversionGraph(ENGINE_DESCRIPTORS));

  it('matches its published schema and counts every pair of the graph', () => {
    expect(FormatCatalogueSchema.safeParse(all).success).toBe(true);
    const graph = new ConversionGraph(ENGINE_DESCRIPTORS);
    expect(all.pairs).toBe(graph.sourceFormats().reduce((sum, source) => sum + graph.targetsOf(source).length, 0));
  });

  it('describes a format with its aliases, and each target with its category, rank, options and losses', () => {
    const jpg = all.formats.find((format) => format.id === 'jpg')!;
    expect(jpg.category).toBe('image');
    expect(jpg.extensions).toEqual(expect.arrayContaining(['jpg', 'jpeg']));
    expect(jpg.targets.find((target) => target.format === 'webp')).toEqual({
      format: 'webp',
      category: 'image',
      recommended: true,
      options: ['crop', 'fit', 'grayscale', 'height', 'quality', 'rotate', 'width'],
      losses: [{ kind: 'lossy-compression', description: CONTENT_LOSSES['lossy-compression'] }],
    });
    expect(jpg.targets.find((target) => target.format === 'png')?.losses).toEqual([]);
    const pdfTargets = all.formats.find((format) => format.id === 'docx')!.targets.find((target) => target.format === 'pdf');
    expect(pdfTargets).toMatchObject({ category: 'document', options: ['pages', 'pdfa'] });
  });

  it('gives each option its JSON Schema, from the schemas that validate it', () => {
    expect(all.option_schemas.quality).toMatchObject({ type: 'integer', minimum: 1, maximum: 100 });
    expect(all.option_schemas.fit).toMatchObject({ enum: ['cover', 'contain', 'fill', 'inside', 'outside'] });
  });

  it('offers only what the given engines make: a graph of sharp alone has no documents', () => {
    const images = formatsView(new ConversionGraph(ENGINE_DESCRIPTORS.filter((descriptor) => descriptor.id === 'sharp')));
    expect(images.formats.map((format) => format.category)).toEqual(images.formats.map(() => 'image'));
    expect(images.formats.some((format) => format.id === 'docx')).toBe(false);
  });
});
