import { describe, expect, it } from 'vitest';
import { generateApiKeySecret, hashApiKeySecret, looksLikeApiKeySecret, shownPrefixOf } from './api-key-secret.js';

describe('API key secrets', () => {
  it('are unique, well-formed and hashed deterministically', () => {
    const first = generateApiKeySecret();
    const second = generateApiKeySecret();
    expect(first).not.toBe(second);
    expect(looksLikeApiKeySecret(first)).toBe(true);
    expect(hashApiKeySecret(first)).toBe(hashApiKeySecret(first));
    expect(hashApiKeySecret(first)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashApiKeySecret(first)).not.toBe(hashApiKeySecret(second));
  });

  it('show only a prefix too short to use', () => {
    const secret = generateApiKeySecret();
    expect(shownPrefixOf(secret)).toBe(secret.slice(0, 12));
    expect(looksLikeApiKeySecret(shownPrefixOf(secret))).toBe(false);
  });

  it('reject values of the wrong shape', () => {
    for (const value of ['', 'fsk_', 'sk_live_abc', `fsk_${'a'.repeat(42)}`, `fsk_${'a'.repeat(43)} `]) expect(looksLikeApiKeySecret(value)).toBe(false);
  });
});
