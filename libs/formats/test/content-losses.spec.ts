import { describe, expect, it } from 'vitest';
import { canLose, CONTENT_LOSSES, contentLosses } from '../src/index.js';

describe('content losses: what a pair cannot carry over, by the nature of its two formats', () => {
  it('a lossless picture to a lossless one that holds as much loses nothing', () => {
    expect(contentLosses('png', 'tiff')).toEqual([]);
    expect(contentLosses('tiff', 'png')).toEqual([]);
    expect(contentLosses('jpg', 'png')).toEqual([]);
  });

  it('a picture to JPEG is compressed with loss and made opaque; to BMP nothing', () => {
    expect(contentLosses('png', 'jpg')).toEqual(['lossy-compression', 'transparency']);
    expect(contentLosses('jpg', 'webp')).toEqual(['lossy-compression']);
    expect(contentLosses('png', 'bmp')).toEqual([]);
  });

  it('to the Netpbm family: grey levels for pgm, one bit for pbm, and neither holds transparency', () => {
    expect(contentLosses('png', 'pgm')).toEqual(['transparency', 'grey-levels']);
    expect(contentLosses('ppm', 'pbm')).toEqual(['one-bit']);
    expect(contentLosses('pbm', 'pgm')).toEqual([]);
  });

  it('to GIF: 256 colours, with transparency kept', () => {
    expect(contentLosses('png', 'gif')).toEqual(['palette']);
    expect(contentLosses('gif', 'png')).toEqual([]);
  });

  it('a document\'s table made plain text keeps its cells, not its rows; markup keeps rows', () => {
    expect(contentLosses('docx', 'txt')).toEqual(['table-layout']);
    expect(contentLosses('xlsx', 'txt')).toEqual(['table-layout']);
    expect(contentLosses('docx', 'md')).toEqual([]);
    expect(contentLosses('txt', 'pdf')).toEqual([]);
  });

  it('video: a still, a GIF without sound, the sound without the picture; subtitles without their styles', () => {
    expect(contentLosses('mp4', 'png')).toEqual(['still-frame']);
    expect(contentLosses('mp4', 'pgm')).toEqual(['grey-levels', 'still-frame']);
    expect(contentLosses('mp4', 'gif')).toEqual(['palette', 'sound']);
    expect(contentLosses('mkv', 'flac')).toEqual(['picture']);
    expect(contentLosses('mkv', 'mp3')).toEqual(['lossy-compression', 'picture']);
    expect(contentLosses('ass', 'srt')).toEqual(['cue-styles']);
    expect(contentLosses('srt', 'ass')).toEqual([]);
  });

  it('an engine\'s loss is said only where the source holds what it loses', () => {
    expect(canLose('xlsx', 'cell-types')).toBe(true);
    expect(canLose('csv', 'cell-types')).toBe(false);
    expect(canLose('docx', 'table-layout')).toBe(true);
    expect(canLose('png', 'table-layout')).toBe(false);
    expect(canLose('jpg', 'transparency')).toBe(false);
  });

  it('unknown formats lose nothing that can be named; every loss has a sentence', () => {
    expect(contentLosses('nope', 'txt')).toEqual([]);
    for (const description of Object.values(CONTENT_LOSSES)) expect(description).toMatch(/^[A-Z].*\.$/);
  });
});
