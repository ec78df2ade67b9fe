import { readFileSync } from 'node:fs';
import type { Hex } from 'viem';
import { type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts';
import { KeystoreError } from './keystore.js';
import { SolanaKey } from './solana-key.js';
import { decryptWalletKeystore } from './wallet-keystore.js';

/**
 * Where the wallet's keys come from: raw keys (an EVM private key, a Solana secret key, or both), or an encrypted
 * keystore file (a v3 keystore with an EVM key, or a wallet keystore with a Solana key too) and its password.
 */
export type WalletKeySource = { privateKey?: string; solanaKey?: string } | { keystorePath: string; password: string };

/** The keys a wallet signs with: at least one. */
export interface WalletKeys {
  evm?: PrivateKeyAccount;
  solana?: SolanaKey;
}

/** The wallet's keys; every problem is a KeystoreError whose message says what to fix. */
export function loadWalletKeys(source: WalletKeySource): WalletKeys {
  if (!('keystorePath' in source)) {
    if (!source.privateKey && !source.solanaKey) throw new KeystoreError('no key given: an EVM private key, a Solana secret key, or both');
    return {
      ...(source.privateKey ? { evm: evmAccount(source.privateKey) } : {}),
      ...(source.solanaKey ? { solana: SolanaKey.parse(source.solanaKey) } : {}),
    };
  }
  let file: unknown;
  try {
    file = JSON.parse(readFileSync(source.keystorePath, 'utf8'));
  } catch (error) {
    throw new KeystoreError(`cannot read the keystore ${source.keystorePath}: ${(error as Error).message}`);
  }
  const secrets = decryptWalletKeystore(file, source.password);
  return { ...(secrets.evm ? { evm: privateKeyToAccount(secrets.evm) } : {}), ...(secrets.solana ? { solana: secrets.solana } : {}) };
}

/** The wallet's EVM account; a source without an EVM key is a KeystoreError. */
export function loadWalletAccount(source: WalletKeySource): PrivateKeyAccount {
  const { evm } = loadWalletKeys(source);
  if (!evm) throw new KeystoreError('the wallet holds no EVM key');
  return evm;
}

function evmAccount(privateKey: string): PrivateKeyAccount {
  const key = privateKey.trim();
  if (!/^(0x)?[0-9a-fA-F]{64}$/.test(key)) throw new KeystoreError('the private key must be 64 hexadecimal characters (with or without 0x)');
  return privateKeyToAccount((key.startsWith('0x') ? key : `0x${key}`) as Hex);
}
