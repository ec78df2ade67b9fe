import { createPrivateKey, hkdfSync, type JsonWebKey, type KeyObject } from 'node:crypto';
import { ANVIL_TEST_KEYS } from '@fileshift/devchain';

/** PKCS#8 DER of an Ed25519 private key, before its 32-byte seed (RFC 8410). */
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/** An Ed25519 private key from PEM (PKCS#8, as `openssl genpkey -algorithm ed25519` writes it) or a JWK; throws what is wrong. */
export function parseSigningKey(text: string): KeyObject {
  const trimmed = text.trim();
  let key: KeyObject;
  try {
    key = trimmed.startsWith('{') ? createPrivateKey({ key: JSON.parse(trimmed) as JsonWebKey, format: 'jwk' }) : createPrivateKey(trimmed.replace(/\\n/g, '\n'));
  } catch {
    throw new Error('must be a private key in PEM (PKCS#8) or JWK form');
  }
  if (key.asymmetricKeyType !== 'ed25519') throw new Error(`must be an Ed25519 key (got ${key.asymmetricKeyType ?? 'another kind'})`);
  return key;
}

/**
 * The configured key, or in dev mode without one the dev key: derived from the first public anvil test key, so every
 * dev process agrees on it with no setting (two API replicas of the local stack sign alike) and no other key material
 * sits in the repository. Like the dev chains' keys it is public: dev receipts prove nothing to anyone but a test.
 */
export function loadSigningKey(configured: string | undefined): KeyObject {
  if (configured) return parseSigningKey(configured);
  const seed = Buffer.from(hkdfSync('sha256', Buffer.from(ANVIL_TEST_KEYS[0]!.slice(2), 'hex'), '', 'fileshift receipt signing key, dev mode only', 32));
  return createPrivateKey({ key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' });
}
