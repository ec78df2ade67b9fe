import { createPrivateKey, generateKeyPairSync, type JsonWebKey, type KeyObject } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The dev-mode signing key's file in the data directory: made once, kept across restarts. */
export const DEV_SIGNING_KEY_FILE = 'receipt-signing-key.pem';

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
 * The configured key, or in dev mode without one the data directory's, made at the first start. Several processes
 * may share the directory: the key is written aside and linked into place whole, and whoever loses the race reads
 * the winner's.
 */
export function loadSigningKey(configured: string | undefined, dataDir: string): KeyObject {
  if (configured) return parseSigningKey(configured);
  const path = join(dataDir, DEV_SIGNING_KEY_FILE);
  mkdirSync(dataDir, { recursive: true });
  const pem = generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }) as string;
  const aside = `${path}.${process.pid}.tmp`;
  writeFileSync(aside, pem, { mode: 0o600 });
  try {
    linkSync(aside, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    rmSync(aside, { force: true });
  }
  return parseSigningKey(readFileSync(path, 'utf8'));
}
