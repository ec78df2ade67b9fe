import { createPrivateKey, createPublicKey, randomBytes } from 'node:crypto';
import { inspect } from 'node:util';
import { createKeyPairSignerFromBytes, getBase58Decoder, getBase58Encoder, type KeyPairSigner } from '@solana/kit';
import { KeystoreError } from './keystore.js';

/** DER header of a PKCS#8 Ed25519 private key, before its 32-byte seed. */
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
const SECRET_KEY_BYTES = 64;

/**
 * A Solana (Ed25519) key: its address, and the 64-byte secret key (the seed, then the public key, as solana-keygen
 * writes it). The secret stays in a private field: JSON, `util.inspect` and error messages show the address only.
 */
export class SolanaKey {
  readonly #secretKey: Uint8Array;

  private constructor(
    secretKey: Uint8Array,
    readonly address: string,
  ) {
    this.#secretKey = secretKey;
  }

  /** A new random key. */
  static generate(): SolanaKey {
    return SolanaKey.fromSeed(randomBytes(32));
  }

  /** The 64-byte secret key; its second half must be the public key of its first (a mismatched pair is refused). */
  static fromSecretKey(bytes: Uint8Array): SolanaKey {
    if (bytes.length !== SECRET_KEY_BYTES) throw new KeystoreError(`a Solana secret key has ${SECRET_KEY_BYTES} bytes, not ${bytes.length}`);
    const key = SolanaKey.fromSeed(bytes.subarray(0, 32));
    if (!Buffer.from(key.#secretKey).equals(Buffer.from(bytes))) throw new KeystoreError('the Solana secret key is damaged: its public half does not belong to its seed');
    return key;
  }

  /** As solana-keygen's keypair file holds it (a JSON array of 64 numbers), or as wallets export it (base58 of those bytes). */
  static parse(text: string): SolanaKey {
    const trimmed = text.trim();
    if (trimmed.startsWith('[')) {
      let numbers: unknown;
      try {
        numbers = JSON.parse(trimmed);
      } catch {
        throw new KeystoreError('the Solana key is not a JSON byte array');
      }
      if (!Array.isArray(numbers) || !numbers.every((n) => Number.isInteger(n) && n >= 0 && n <= 255)) throw new KeystoreError('the Solana key is not a JSON byte array');
      return SolanaKey.fromSecretKey(Uint8Array.from(numbers as number[]));
    }
    let bytes: Uint8Array;
    try {
      bytes = new Uint8Array(getBase58Encoder().encode(trimmed));
    } catch {
      throw new KeystoreError('the Solana key must be a JSON array of 64 bytes (solana-keygen) or those bytes in base58');
    }
    return SolanaKey.fromSecretKey(bytes);
  }

  private static fromSeed(seed: Uint8Array): SolanaKey {
    const privateKey = createPrivateKey({ key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' });
    const publicKey = createPublicKey(privateKey).export({ format: 'der', type: 'spki' }).subarray(-32);
    return new SolanaKey(new Uint8Array(Buffer.concat([seed, publicKey])), getBase58Decoder().decode(publicKey));
  }

  /** The signer the x402 Solana client signs transfers with. */
  signer(): Promise<KeyPairSigner> {
    return createKeyPairSignerFromBytes(Uint8Array.from(this.#secretKey));
  }

  /** A copy of the 64-byte secret key: for encrypting it into a keystore, nothing else. */
  exportSecretKey(): Uint8Array {
    return Uint8Array.from(this.#secretKey);
  }

  toJSON(): { address: string } {
    return { address: this.address };
  }

  [inspect.custom](): string {
    return `SolanaKey(${this.address})`;
  }
}
