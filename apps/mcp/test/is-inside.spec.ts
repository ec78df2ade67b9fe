import { describe, expect, it } from 'vitest';
import { isInside } from '../src/local-paths/is-inside.js';

describe('isInside', () => {
  it('accepts the root itself and what lies below it', () => {
    expect(isInside('/home/ann/docs', '/home/ann/docs')).toBe(true);
    expect(isInside('/home/ann/docs', '/home/ann/docs/a/b.png')).toBe(true);
    expect(isInside('/home/ann/docs', '/home/ann/docs/..hidden')).toBe(true);
    expect(isInside('/', '/etc/passwd')).toBe(true);
  });
  it('refuses siblings sharing a prefix, parents and other trees', () => {
    expect(isInside('/home/ann/docs', '/home/ann/docs-private/x')).toBe(false);
    expect(isInside('/home/ann/docs', '/home/ann')).toBe(false);
    expect(isInside('/home/ann/docs', '/etc/passwd')).toBe(false);
  });
});
