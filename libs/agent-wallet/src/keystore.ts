import { createCipheriv, createDecipheriv, pbkdf2Sync, randomBytes, randomUUID, scryptSync, timingSafeEqual } from 'node:crypto';
import { type Hex, keccak256 } from 'viem';
import { privateKeyToAddress } from 'viem/accounts';

/** An Ethereum keystore file (Web3 Secret Storage v3), as geth, Foundry's `cast wallet` and MetaMask export it. */
export interface KeystoreV3 {
  version: 3;
  id: string;
  address: string;
  crypto: KeystoreCrypto;
}

/** How a v3 keystore encrypts its secret. */
export interface KeystoreCrypto {
  cipher: 'aes-128-ctr';
  ciphertext: string;
  cipherparams: { iv: string };
  kdf: 'scrypt' | 'pbkdf2';
  kdfparams: { dklen: number; salt: string; n?: number; r?: number; p?: number; c?: number; prf?: string };
  mac: string;
}

export class KeystoreError extends Error {}

/** The private key of a v3 keystore; a wrong password or a damaged file is a KeystoreError. */
export function decryptKeystore(keystore: KeystoreV3, password: string): Hex {
  if (keystore?.version !== 3) throw new KeystoreError('not a version 3 keystore with aes-128-ctr');
  return `0x${decryptSecret(keystore.crypto, password).toString('hex')}`;
}

/** The secret in a v3 keystore's `crypto` block (any length: Fileshift wallet keystores keep Solana keys this way too). */
export function decryptSecret(crypto: KeystoreCrypto, password: string): Buffer {
  if (crypto?.cipher !== 'aes-128-ctr') throw new KeystoreError('not a version 3 keystore with aes-128-ctr');
  const derived = deriveKey(password, crypto.kdf, crypto.kdfparams);
  const ciphertext = Buffer.from(crypto.ciphertext, 'hex');
  const mac = Buffer.from(keccak256(Buffer.concat([derived.subarray(16, 32), ciphertext])).slice(2), 'hex');
  const expected = Buffer.from(crypto.mac, 'hex');
  if (expected.length !== mac.length || !timingSafeEqual(mac, expected)) throw new KeystoreError('wrong keystore password (or a damaged keystore)');
  const decipher = createDecipheriv('aes-128-ctr', derived.subarray(0, 16), Buffer.from(crypto.cipherparams.iv, 'hex'));
  return Buffer.concat([decipher.update(ciphertext), decipher.final()]);
}

/** A v3 keystore for `privateKey` (scrypt; `n` may be lowered for tests). */
export function encryptKeystore(privateKey: Hex, password: string, options: { n?: number } = {}): KeystoreV3 {
  return {
    version: 3,
    id: randomUUID(),
    address: privateKeyToAddress(privateKey).slice(2).toLowerCase(),
    crypto: encryptSecret(Buffer.from(privateKey.slice(2), 'hex'), password, options),
  };
}

/** A v3 keystore's `crypto` block for `secret` (scrypt, aes-128-ctr, keccak MAC). */
export function encryptSecret(secret: Uint8Array, password: string, { n = 262_144 }: { n?: number } = {}): KeystoreCrypto {
  const kdfparams = { dklen: 32, salt: randomBytes(32).toString('hex'), n, r: 8, p: 1 };
  const derived = deriveKey(password, 'scrypt', kdfparams);
  const iv = randomBytes(16);
  const cipher = createCipheriv('aes-128-ctr', derived.subarray(0, 16), iv);
  const ciphertext = Buffer.concat([cipher.update(secret), cipher.final()]);
  return {
    cipher: 'aes-128-ctr',
    ciphertext: ciphertext.toString('hex'),
    cipherparams: { iv: iv.toString('hex') },
    kdf: 'scrypt',
    kdfparams,
    mac: keccak256(Buffer.concat([derived.subarray(16, 32), ciphertext])).slice(2),
  };
}

function deriveKey(password: string, kdf: string, params: KeystoreCrypto['kdfparams']): Buffer {
  const salt = Buffer.from(params.salt, 'hex');
  if (kdf === 'scrypt' && params.n && params.r && params.p) {
    // scrypt needs 128·N·r bytes; the standard N = 2^18 needs 256 MiB.
    return scryptSync(password, salt, params.dklen, { N: params.n, r: params.r, p: params.p, maxmem: 256 * params.n * params.r });
  }
  if (kdf === 'pbkdf2' && params.c && params.prf === 'hmac-sha256') return pbkdf2Sync(password, salt, params.c, params.dklen, 'sha256');
  throw new KeystoreError(`unsupported keystore key derivation ${kdf}`);
}
