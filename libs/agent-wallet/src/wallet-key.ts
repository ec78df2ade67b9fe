import { readFileSync } from 'node:fs';
import type { Hex } from 'viem';
import { type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts';
import { decryptKeystore, KeystoreError, type KeystoreV3 } from './keystore.js';

/** Where the wallet's key comes from: a raw private key, or an encrypted keystore file and its password. */
export type WalletKeySource = { privateKey: string } | { keystorePath: string; password: string };

/** The wallet's account; every problem is a KeystoreError whose message says what to fix. */
export function loadWalletAccount(source: WalletKeySource): PrivateKeyAccount {
  if ('privateKey' in source) {
    const key = source.privateKey.trim();
    if (!/^(0x)?[0-9a-fA-F]{64}$/.test(key)) throw new KeystoreError('the private key must be 64 hexadecimal characters (with or without 0x)');
    return privateKeyToAccount((key.startsWith('0x') ? key : `0x${key}`) as Hex);
  }
  let keystore: KeystoreV3;
  try {
    keystore = JSON.parse(readFileSync(source.keystorePath, 'utf8')) as KeystoreV3;
  } catch (error) {
    throw new KeystoreError(`cannot read the keystore ${source.keystorePath}: ${(error as Error).message}`);
  }
  return privateKeyToAccount(decryptKeystore(keystore, source.password));
}
