import { FORMAT_CATEGORIES } from '@fileshift/formats';
import { describe, expect, it } from 'vitest';
import { pairClassOf } from './pair-class.js';

describe('pairClassOf', () => {
  it('names the categories of both formats', () => {
    expect(pairClassOf('png', 'webp')).toBe('image_to_image');
    expect(pairClassOf('docx', 'pdf')).toBe('document_to_document');
    expect(pairClassOf('mp3', 'wav')).toBe('audio_to_audio');
    expect(pairClassOf('pdf', 'png')).toBe('document_to_image');
  });

  it('counts an unknown format as other, so no input can add a label value', () => {
    expect(pairClassOf('job_abc.png', 'webp')).toBe('other_to_image');
    expect(pairClassOf('png', '')).toBe('image_to_other');
  });

  it('has at most (categories + 1)² values', () => {
    const categories = [...FORMAT_CATEGORIES, 'other'];
    expect(new Set(categories.flatMap((a) => categories.map((b) => `${a}_to_${b}`))).size).toBe(categories.length ** 2);
  });
});
