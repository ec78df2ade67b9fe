import { describe, expect, it } from 'vitest';
import { describeResultContent, MAX_EMBEDDED_BYTES, resultContent } from '../src/results/result-content.js';

const resource = (mimeType: string, size: number) => ({ uri: 'fileshift://results/j1/out.bin', name: 'out.bin', mimeType, size });

describe('resultContent', () => {
  it('links every result, and embeds a small image or audio file as such', () => {
    const data = new Uint8Array([1, 2, 3]);
    const image = resultContent(resource('image/webp', 3), data, { embed: false });
    expect(image.content).toEqual([
      { type: 'resource_link', ...resource('image/webp', 3) },
      { type: 'image', mimeType: 'image/webp', data: 'AQID' },
    ]);
    expect(resultContent(resource('audio/mpeg', 3), data, { embed: false }).content[1]).toEqual({ type: 'audio', mimeType: 'audio/mpeg', data: 'AQID' });
  });

  it('embeds other files only when asked', () => {
    const data = new Uint8Array([1, 2, 3]);
    expect(resultContent(resource('application/pdf', 3), data, { embed: false })).toMatchObject({ embeddedAs: null, tooBigToEmbed: false, content: [{ type: 'resource_link' }] });
    expect(resultContent(resource('application/pdf', 3), data, { embed: true }).content[1]).toEqual({
      type: 'resource',
      resource: { uri: 'fileshift://results/j1/out.bin', mimeType: 'application/pdf', blob: 'AQID' },
    });
  });

  it('links only, and says so, when the file is over the limit', () => {
    const big = new Uint8Array(MAX_EMBEDDED_BYTES + 1);
    const returned = resultContent(resource('image/png', big.length), big, { embed: true });
    expect(returned).toMatchObject({ embeddedAs: null, tooBigToEmbed: true });
    expect(returned.content).toHaveLength(1);
    expect(describeResultContent(resource('image/png', big.length), returned)).toContain(`too big to embed here (${big.length} bytes, over ${MAX_EMBEDDED_BYTES})`);
    // Exactly at the limit still embeds.
    expect(resultContent(resource('image/png', MAX_EMBEDDED_BYTES), new Uint8Array(MAX_EMBEDDED_BYTES), { embed: false }).embeddedAs).toBe('image');
  });
});
