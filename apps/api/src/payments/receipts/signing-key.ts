import { createPrivateKey, hkdfSync, type KeyObject } from 'node:crypto';
import { ANVIL_TEST_KEYS } from '@fileshift/devchain';
import { parseSigningKey } from '../../config/parse-signing-key.js';

// Defined with the configuration, which checks RECEIPT_SIGNING_KEY with it at start; the receipts' key is read with it.
export { parseSigningKey };

/** PKCS#8 DER of an Ed25519 private key, before its 32-byte seed (RFC 8410). */
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

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
