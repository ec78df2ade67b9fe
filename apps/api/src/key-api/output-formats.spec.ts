import { CONTENT_LOSSES, getFormat } from '@fileshift/formats';
import { describe, expect, it } from 'vitest';
import { type ConversionTargets, outputExtensions, outputFormatsByType, targetLosses } from './output-formats.js';

const EDGES: Record<string, Record<string, boolean>> = {
  png: { webp: true, jpg: true, gif: false, pdf: false },
  wav: { mp3: true, flac: false },
};
const graph: ConversionTargets = {
  targetsOf: (from) => Object.keys(EDGES[from] ?? {}),
  isRecommended: (from, to) => EDGES[from]?.[to] ?? false,
  lossesOf: (from, to) => (from === 'png' && to === 'jpg' ? ['lossy-compression', 'transparency'] : []),
};

describe('output formats of the key API', () => {
  it('lists every target extension alphabetically', () => {
    expect(outputExtensions(getFormat('png')!, graph)).toEqual(['gif', 'jpg', 'pdf', 'webp']);
    expect(outputExtensions(getFormat('mp4')!, graph)).toEqual([]);
  });

  it('groups targets by category with 1 for recommended and 0 for available', () => {
    const png = outputFormatsByType(getFormat('png')!, graph);
    expect(png.type).toBe('image');
    expect(png.extensions_by_type).toEqual({ image: { gif: 0, jpg: 1, webp: 1 }, document: { pdf: 0 } });
    expect(png.menu_popular).toEqual([{ image: ['jpg', 'webp'] }]);
  });

  it('says what each target loses, in sentences, and lists only the targets that lose something', () => {
    const png = outputFormatsByType(getFormat('png')!, graph);
    expect(png.losses).toEqual({ jpg: [CONTENT_LOSSES['lossy-compression'], CONTENT_LOSSES.transparency] });
    expect(targetLosses(getFormat('wav')!, graph)).toEqual({});
  });

  it('puts the source category first in the menu and uses canonical extensions', () => {
    const wav = outputFormatsByType(getFormat('wav')!, graph);
    expect(wav.type).toBe('audio');
    expect(wav.extensions_by_type).toEqual({ audio: { flac: 0, mp3: 1 } });
    expect(wav.menu_popular).toEqual([{ audio: ['mp3'] }]);
  });
});
