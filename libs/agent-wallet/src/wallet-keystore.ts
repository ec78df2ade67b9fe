import type { Hex } from 'viem';
import { decryptKeystore, decryptSecret, encryptKeystore, encryptSecret, type KeystoreCrypto, KeystoreError, type KeystoreV3 } from './keystore.js';
import { SolanaKey } from './solana-key.js';

/**
 * A wallet keystore holding a Solana key (and an EVM key, when the wallet has both): one password, each key encrypted
 * as in a v3 keystore (scrypt, aes-128-ctr, keccak MAC). A wallet with an EVM key only is written as a plain v3
 * keystore, which Ethereum tools read too; both forms are read.
 */
export interface WalletKeystore {
  fileshiftWallet: 1;
  evm?: KeystoreV3;
  /** `address`: the base58 public key; the ciphertext is the 64-byte secret key (seed, then public key). */
  solana?: { address: string; crypto: KeystoreCrypto };
}

/** The keys a wallet keystore holds; at least one. */
export interface WalletSecrets {
  evm?: Hex;
  solana?: SolanaKey;
}

/** A plain v3 keystore for an EVM key alone, else a wallet keystore (scrypt; `n` may be lowered for tests). */
export function encryptWalletKeystore(keys: WalletSecrets, password: string, options: { n?: number } = {}): KeystoreV3 | WalletKeystore {
  if (!keys.evm && !keys.solana) throw new KeystoreError('a wallet keystore needs an EVM or a Solana key');
  if (!keys.solana) return encryptKeystore(keys.evm!, password, options);
  return {
    fileshiftWallet: 1,
    ...(keys.evm ? { evm: encryptKeystore(keys.evm, password, options) } : {}),
    solana: { address: keys.solana.address, crypto: encryptSecret(keys.solana.exportSecretKey(), password, options) },
  };
}

/** The keys of either form; a wrong password, a damaged file or an unknown form is a KeystoreError. */
export function decryptWalletKeystore(file: unknown, password: string): WalletSecrets {
  const keystore = file as Partial<KeystoreV3 & WalletKeystore> | null;
  if (keystore?.version === 3) return { evm: decryptKeystore(keystore as KeystoreV3, password) };
  if (keystore?.fileshiftWallet !== 1 || (!keystore.evm && !keystore.solana)) {
    throw new KeystoreError('not a version 3 keystore nor a Fileshift wallet keystore (with an evm or a solana key)');
  }
  const secrets: WalletSecrets = {};
  if (keystore.evm) secrets.evm = decryptKeystore(keystore.evm, password);
  if (keystore.solana) {
    const solana = SolanaKey.fromSecretKey(decryptSecret(keystore.solana.crypto, password));
    if (solana.address !== keystore.solana.address) throw new KeystoreError(`the keystore's Solana key is not the one of its address ${keystore.solana.address}`);
    secrets.solana = solana;
  }
  return secrets;
}
