import { describe, expect, it } from 'vitest';
import { KeyApiDetectBodyError, parseKeyApiDetectBody } from './key-api-detect-body.js';

const SEP = Buffer.from([0xfe]);
const body = (...parts: Array<string | Buffer>) =>
  Buffer.concat(parts.flatMap((part, index) => [index ? SEP : Buffer.alloc(0), typeof part === 'string' ? Buffer.from(part, 'latin1') : part]));

describe('parseKeyApiDetectBody', () => {
  it('reads the five segments; the size is hexadecimal with or without 0x', () => {
    const header = Buffer.from([0x89, 0x50, 0x4e, 0x47]);
    for (const size of ['1a2b', '0x1A2B']) {
      const parsed = parseKeyApiDetectBody(body('PNG', size, 'image/png', 'photo.png', header));
      expect(parsed).toEqual({ ext: 'png', sizeBytes: 0x1a2b, mimeType: 'image/png', filename: 'photo.png', header: new Uint8Array(header) });
    }
  });

  it('splits on the first four separators only: 0xFE inside the header stays in the header', () => {
    const header = Buffer.from([0xff, 0xfe, 0x00, 0xfe, 0xfe, 0x41]);
    const parsed = parseKeyApiDetectBody(body('txt', 'ff', 'text/plain', 'a.txt', header));
    expect(Buffer.from(parsed.header)).toEqual(header);
  });

  it('accepts UTF-8 and Latin-1 filenames', () => {
    expect(parseKeyApiDetectBody(body('txt', '10', '', Buffer.from('résumé.txt', 'utf8'), 'x')).filename).toBe('résumé.txt');
    expect(parseKeyApiDetectBody(body('txt', '10', '', Buffer.from('résumé.txt', 'latin1'), 'x')).filename).toBe('résumé.txt');
  });

  it('refuses malformed bodies with a message', () => {
    const cases: Buffer[] = [
      Buffer.from('png;10;image/png;a.png;x'),
      body('png', 'zz', 'image/png', 'a.png', 'x'),
      body('png', '', 'image/png', 'a.png', 'x'),
      body('png', '1', 'image/png', 'a.png', 'xyz'),
      body('png', 'fff', 'image/png', 'a.png', Buffer.alloc(201)),
    ];
    for (const input of cases) expect(() => parseKeyApiDetectBody(input)).toThrow(KeyApiDetectBodyError);
  });
});
