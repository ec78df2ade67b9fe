import { describe, expect, it } from 'vitest';
import { sourceFileName } from './source-file-name.js';

describe('sourceFileName: the name of a file fetched from a URL', () => {
  it('takes Content-Disposition first, its RFC 5987 filename* before filename', () => {
    expect(sourceFileName('attachment; filename="report final.pdf"', 'https://example.com/x')).toBe('report final.pdf');
    expect(sourceFileName(`attachment; filename="fallback.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf`, 'https://example.com/x')).toBe('résumé.pdf');
    expect(sourceFileName(`attachment; filename*=iso-8859-1''caf%E9.txt`, 'https://example.com/x')).toBe('café.txt');
    expect(sourceFileName('inline; filename=plain.txt', 'https://example.com/x')).toBe('plain.txt');
  });

  it('else the last path segment of the final URL, decoded; else "download"', () => {
    expect(sourceFileName(undefined, 'https://example.com/a/b/photo%20one.png?size=2')).toBe('photo one.png');
    expect(sourceFileName('attachment', 'https://example.com/files/')).toBe('download');
    expect(sourceFileName(undefined, 'https://example.com/%E0%A4%A')).toBe('%E0%A4%A');
  });

  it('cleans the name as an upload\'s: no directories, no control characters', () => {
    expect(sourceFileName('attachment; filename="../../etc/passwd"', 'https://example.com/x')).toBe('passwd');
    expect(sourceFileName(undefined, 'https://example.com/a%2F..%2Fevil%0A.txt')).toBe('evil.txt');
  });
});
