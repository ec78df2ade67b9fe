import type { SolanaDevChain } from '@fileshift/devchain';
import { createKeyPairSignerFromBytes, type KeyPairSigner } from '@solana/kit';
import { x402Client } from '@x402/core/client';
import type { PaymentPayload, PaymentRequired, PaymentRequirements } from '@x402/core/types';
import { wrapFetchWithPayment } from '@x402/fetch';
import { ExactSvmScheme } from '@x402/svm/exact/client';

/** The Solana dev chain's funded payer number `index` (a public test key). */
export function solanaPayer(chain: SolanaDevChain, index: number): Promise<KeyPairSigner> {
  const secretKey = chain.payerSecretKeys[index];
  if (!secretKey) throw new Error(`the Solana dev chain has no payer number ${index}`);
  return createKeyPairSignerFromBytes(secretKey);
}

/**
 * The official x402 client paying on the Solana dev chain only: its RPC calls (the mint, a blockhash) go to the
 * chain, and its test mint (or `assets`) is allowed explicitly, as the library pays only known assets otherwise.
 * With only Solana registered, it picks a challenge's Solana offer.
 */
export function solanaPayingClient(chain: SolanaDevChain, signer: KeyPairSigner, assets: string[] = [chain.usdcMint]): x402Client {
  const client = new x402Client().register(chain.network, new ExactSvmScheme(signer, { rpcUrl: chain.rpcUrl }));
  client.setSpendControls({ allowedAssets: assets.map((asset) => ({ network: chain.network, asset })) });
  return client;
}

export function solanaPayingFetch(chain: SolanaDevChain, signer: KeyPairSigner): typeof fetch {
  return wrapFetchWithPayment(fetch, solanaPayingClient(chain, signer)) as typeof fetch;
}

/** The Solana offer of a challenge. */
export function solanaOffer(challenge: PaymentRequired, chain: SolanaDevChain): PaymentRequirements {
  const offer = challenge.accepts.find((accepted) => accepted.network === chain.network);
  if (!offer) throw new Error(`the challenge offers no payment on ${chain.network}`);
  return offer;
}

/**
 * A payment presented as answering the challenge's Solana offer whose transaction the official client built for `signedFor` instead
 * (another amount, another mint): what a cheating payer would send.
 */
export async function paymentSignedFor(chain: SolanaDevChain, signer: KeyPairSigner, challenge: PaymentRequired, signedFor: Partial<PaymentRequirements>): Promise<PaymentPayload> {
  const offer = solanaOffer(challenge, chain);
  const requirements = { ...offer, ...signedFor };
  const client = solanaPayingClient(chain, signer, [requirements.asset]);
  const payload = await client.createPaymentPayload({ ...challenge, accepts: [requirements] });
  return { ...payload, accepted: offer };
}

/** What the chain says of a transaction signature: null when it never landed. */
export async function signatureStatus(chain: SolanaDevChain, signature: string): Promise<{ err: unknown; confirmationStatus: string } | null> {
  const { value } = (await chain.rpc('getSignatureStatuses', [[signature], { searchTransactionHistory: true }])) as { value: Array<{ err: unknown; confirmationStatus: string } | null> };
  return value[0] ?? null;
}
