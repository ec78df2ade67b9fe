import { createHash, randomBytes } from 'node:crypto';

const SECRET_PREFIX = 'fsk_';
const SHOWN_PREFIX_LENGTH = 12;
const SECRET_PATTERN = /^fsk_[A-Za-z0-9_-]{43}$/;

/** A new key: 256 random bits, recognisable by its `fsk_` prefix (secret scanners can match it). */
export function generateApiKeySecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64url')}`;
}

/**
 * What is stored and looked up. The secret has 256 bits of entropy, so a plain SHA-256 cannot be
 * brute-forced and a lookup costs one indexed query (a slow password hash would add nothing).
 */
export function hashApiKeySecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** The part of a key shown in listings. */
export function shownPrefixOf(secret: string): string {
  return secret.slice(0, SHOWN_PREFIX_LENGTH);
}

/** Cheap shape check before a database lookup. */
export function looksLikeApiKeySecret(value: string): boolean {
  return SECRET_PATTERN.test(value);
}
