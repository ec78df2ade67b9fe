import { createHash, createPrivateKey, createPublicKey } from 'node:crypto';
import { address, type Address, getBase58Decoder } from '@solana/kit';

/**
 * The Solana dev chain's keys, each derived from a fixed, public seed (sha256 of its role's name), so that
 * every process attaching to one chain knows the same addresses without asking it. Like anvil's test keys,
 * they are public and well known: test-only, holding value only on local development chains.
 */
export interface SolanaDevKey {
  readonly address: Address;
  /** 64 bytes: the 32-byte Ed25519 seed, then the public key (the form of solana-keygen and createKeyPairSignerFromBytes). */
  readonly secretKey: Uint8Array;
}

/** DER header of a PKCS#8 Ed25519 private key, before its 32-byte seed. */
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

export function solanaDevKey(role: string): SolanaDevKey {
  const seed = createHash('sha256').update(`fileshift-devchain/solana/${role}`).digest();
  const privateKey = createPrivateKey({ key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' });
  const publicKey = createPublicKey(privateKey).export({ format: 'der', type: 'spki' }).subarray(-32);
  return { address: address(getBase58Decoder().decode(publicKey)), secretKey: new Uint8Array(Buffer.concat([seed, publicKey])) };
}

const PAYER_COUNT = 8;

/** Every role on the chain. The mint's own key only fixes its address; the mint authority may mint more. */
export const SOLANA_DEV_KEYS = {
  usdcMint: solanaDevKey('usdc-mint'),
  mintAuthority: solanaDevKey('mint-authority'),
  payTo: solanaDevKey('pay-to'),
  feePayer: solanaDevKey('fee-payer'),
  payers: Array.from({ length: PAYER_COUNT }, (_, i) => solanaDevKey(`payer-${i}`)),
} as const;

/**
 * The network the chain calls itself. @x402/svm 2.27 accepts only the three public clusters (its client and
 * facilitator build their RPC from the network and refuse any other id), so the local chain borrows devnet's
 * id; its token is not devnet's USDC, so a wallet pointed at the real devnet cannot pay it by mistake.
 */
export const SOLANA_DEV_NETWORK = 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1' as const;

export const SOLANA_DEV_USDC_DECIMALS = 6;
/** Test USDC each payer holds at the start: 1,000,000 (6 decimals). */
export const SOLANA_DEV_USDC_PER_PAYER = 1_000_000n * 10n ** 6n;
/** 1 SOL, in lamports. */
export const LAMPORTS_PER_SOL = 1_000_000_000n;
