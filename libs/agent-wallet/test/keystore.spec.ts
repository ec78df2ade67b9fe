import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { decryptKeystore, encryptKeystore, KeystoreError } from '../src/keystore.js';

// The Web3 Secret Storage test vector (pbkdf2 variant) from the Ethereum wiki.
const PBKDF2_VECTOR = {
  version: 3 as const,
  id: '3198bc9c-6672-5ab3-d995-4942343ae5b6',
  address: '008aeeda4d805471df9b2a5b0f38a0c3bcba786b',
  crypto: {
    cipher: 'aes-128-ctr' as const,
    cipherparams: { iv: '6087dab2f9fdbbfaddc31a909735c1e6' },
    ciphertext: '5318b4d5bcd28de64ee5559e671353e16f075ecae9f99c7a79a38af5f869aa46',
    kdf: 'pbkdf2' as const,
    kdfparams: { c: 262144, dklen: 32, prf: 'hmac-sha256', salt: 'ae3cd4e7013836a3df6bd7241b12db061dbe2c6785853cce422d148a624ce0bd' },
    mac: '517ead924a9d0dc3124507e3393d175ce3ff7c1e96529c6c555ce9e51205e9b2',
  },
};

describe('keystore (Web3 Secret Storage v3)', () => {
  it('decrypts the reference test vector', () => {
    expect(decryptKeystore(PBKDF2_VECTOR, 'testpassword')).toBe('0x7a28b5ba57c53603b0b07b56bba752f7784bf506fa95edc395f5cf6c7514fe9d');
  });

  it('round-trips a key through scrypt encryption and names its address', () => {
    const key = generatePrivateKey();
    const keystore = encryptKeystore(key, 'correct horse', { n: 1024 });
    expect(keystore.address).toBe(privateKeyToAddress(key).slice(2).toLowerCase());
    expect(decryptKeystore(keystore, 'correct horse')).toBe(key);
  });

  it('refuses a wrong password and a damaged file', () => {
    const keystore = encryptKeystore(generatePrivateKey(), 'right', { n: 1024 });
    expect(() => decryptKeystore(keystore, 'wrong')).toThrow(KeystoreError);
    // The first byte flipped, never set to a value it may already have (1 run in 256 would change nothing).
    const flipped = (Number.parseInt(keystore.crypto.ciphertext.slice(0, 2), 16) ^ 0xff).toString(16).padStart(2, '0');
    expect(() => decryptKeystore({ ...keystore, crypto: { ...keystore.crypto, ciphertext: `${flipped}${keystore.crypto.ciphertext.slice(2)}` } }, 'right')).toThrow(/wrong keystore password/);
    expect(() => decryptKeystore({ version: 1 } as never, 'x')).toThrow(/not a version 3 keystore/);
  });
});
