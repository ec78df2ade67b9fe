import { describe, expect, it } from 'vitest';
import { responseFilename } from '../src/url-input/response-filename.js';

const url = new URL('https://files.example/dir/photo%20one.png?x=1');

describe('responseFilename', () => {
  it('prefers filename* (RFC 5987) over filename', () => {
    expect(responseFilename(`attachment; filename="plain.png"; filename*=UTF-8''caf%C3%A9.png`, url)).toBe('café.png');
  });
  it('reads a quoted or bare filename', () => {
    expect(responseFilename('attachment; filename="report \\"v2\\".pdf"', url)).toBe('report "v2".pdf');
    expect(responseFilename('inline; filename=data.csv', url)).toBe('data.csv');
  });
  it('falls back to the decoded last path segment', () => {
    expect(responseFilename(undefined, url)).toBe('photo one.png');
    expect(responseFilename('inline', url)).toBe('photo one.png');
  });
  it('never keeps directories or control characters, and has a name when nothing gives one', () => {
    expect(responseFilename('attachment; filename="../../etc/passwd"', url)).toBe('passwd');
    expect(responseFilename(`attachment; filename*=UTF-8''..%2F..%2Fevil%0A.sh`, url)).toBe('evil.sh');
    expect(responseFilename(undefined, new URL('https://files.example/'))).toBe('download');
    expect(responseFilename('attachment; filename=".."', new URL('https://files.example/'))).toBe('download');
  });
});
