import { describe, expect, it } from 'vitest';
import { ConversionGraph } from '../src/conversion-graph.js';
import type { ConversionPair, Converter } from '../src/converter.js';
import { createConversionGraph, createDefaultRegistry } from '../src/create-default-registry.js';

const fake = (id: string, pairs: ConversionPair[], available = true): Converter => ({
  id,
  probe: async () => ({ available }),
  pairs: () => pairs,
  convert: async () => ({ engine: id, outputBytes: 0 }),
});

describe('ConversionGraph', () => {
  it('answers targets, pairs, recommendations and the engine of each pair', () => {
    const a = fake('a', [{ from: 'png', to: 'jpg', recommended: true }, { from: 'png', to: 'webp' }, { from: 'png', to: 'png' }]);
    const b = fake('b', [{ from: 'png', to: 'webp', recommended: true }, { from: 'mp3', to: 'wav' }]);
    const graph = new ConversionGraph([a, b]);
    expect(graph.targetsOf('png')).toEqual(['jpg', 'webp']);
    expect(graph.targetsOf('unknown')).toEqual([]);
    expect(graph.canConvert('mp3', 'wav')).toBe(true);
    expect(graph.canConvert('wav', 'mp3')).toBe(false);
    expect(graph.isRecommended('png', 'jpg')).toBe(true);
    expect(graph.isRecommended('png', 'webp')).toBe(false);
    expect(graph.converterFor('png', 'webp')?.id).toBe('a');
    expect(graph.sourceFormats().sort()).toEqual(['mp3', 'png']);
  });

  it('ignores identity pairs and matches ids case-insensitively', () => {
    const graph = new ConversionGraph([fake('a', [{ from: 'PNG', to: 'Jpg', recommended: true }, { from: 'jpg', to: 'jpg' }])]);
    expect(graph.canConvert('png', 'JPG')).toBe(true);
    expect(graph.isRecommended('Png', 'jpg')).toBe(true);
    expect(graph.targetsOf('jpg')).toEqual([]);
    expect(graph.canConvert('jpg', 'jpg')).toBe(false);
  });

  it('keeps an engine whose probe throws out of the graph', async () => {
    const broken: Converter = { ...fake('broken', [{ from: 'x', to: 'y' }]), probe: async () => Promise.reject(new Error('no binary')) };
    const { graph, missing, engines } = await createDefaultRegistry([broken]);
    expect(graph.canConvert('x', 'y')).toBe(false);
    expect(missing).toEqual(['broken']);
    expect(engines[0]?.availability.problem).toBe('no binary');
  });

  it('leaves out engines that are not present', async () => {
    const { graph, missing } = await createConversionGraph([fake('here', [{ from: 'a', to: 'b' }]), fake('gone', [{ from: 'c', to: 'd' }], false)]);
    expect(graph.sourceFormats()).toEqual(['a']);
    expect(missing).toEqual(['gone']);
  });

  it('offers the sharp image and ffmpeg audio pairs on this machine', async () => {
    const { graph, missing, engines } = await createDefaultRegistry();
    if (missing.length > 0) console.error(`\n*** ENGINES MISSING: ${JSON.stringify(engines.filter((e) => !e.availability.available))} — install them (Debian: ffmpeg). ***\n`);
    expect(missing).toEqual([]);
    expect(graph.targetsOf('mp3').sort()).toEqual(['aac', 'flac', 'm4a', 'ogg', 'opus', 'wav']);
    expect(graph.converterFor('wav', 'opus')?.id).toBe('ffmpeg-audio');
    expect(graph.isRecommended('png', 'webp')).toBe(true);
    expect(graph.isRecommended('png', 'tiff')).toBe(false);
    expect(graph.targetsOf('png')).toEqual(expect.arrayContaining(['jpg', 'webp', 'avif', 'tiff', 'gif']));
    expect(graph.targetsOf('svg')).toContain('png');
    expect(graph.targetsOf('png')).not.toContain('svg');
  });
});
