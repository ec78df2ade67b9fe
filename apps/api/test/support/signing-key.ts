import { generateKeyPairSync } from 'node:crypto';

/** A fresh Ed25519 private key in PEM, as RECEIPT_SIGNING_KEY takes it (live mode needs one). */
export function newSigningKeyPem(): string {
  return generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }) as string;
}
