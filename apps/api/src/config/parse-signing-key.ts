import { createPrivateKey, type JsonWebKey, type KeyObject } from 'node:crypto';

/**
 * An Ed25519 private key from PEM (PKCS#8, as `openssl genpkey -algorithm ed25519` writes it) or a JWK; throws what is
 * wrong. Here, not beside the receipt signer, because the configuration checks RECEIPT_SIGNING_KEY with it at start.
 */
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
