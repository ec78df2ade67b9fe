import { describe, expect, it } from 'vitest';
import { decodeBase64Strictly } from '../src/strict-base64.js';

describe('decodeBase64Strictly: base64 as RFC 4648 writes it, or nothing', () => {
  it('decodes standard base64, wrapped lines and missing padding', () => {
    expect(Buffer.from(decodeBase64Strictly('aGVsbG8=')!).toString()).toBe('hello');
    expect(Buffer.from(decodeBase64Strictly('aGVs\r\nbG8=')!).toString()).toBe('hello');
    expect(Buffer.from(decodeBase64Strictly('aGVsbG8')!).toString()).toBe('hello');
  });

  it.each(['notbase64!!', 'aGVsbG8=aGVs', 'a', 'aGVsbG8==='])('refuses %j instead of decoding it leniently', (text) => {
    expect(decodeBase64Strictly(text)).toBeNull();
  });
});
