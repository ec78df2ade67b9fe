import { createKeyPairSignerFromBytes } from '@solana/kit';
import { x402Client } from '@x402/core/client';
import type { PaymentPayload, PaymentRequired, PaymentRequirements } from '@x402/core/types';
import { ExactSvmScheme } from '@x402/svm/exact/client';
import type { SolanaDevChain } from '../../src/solana-dev-chain.js';

/** What a service on the Solana dev chain asks for a 0.002 USDC call, with `overrides`. */
export function solanaRequirementsOn(chain: SolanaDevChain, overrides: Partial<PaymentRequirements> = {}): PaymentRequirements {
  return {
    scheme: 'exact',
    network: chain.network,
    asset: chain.usdcMint,
    amount: '2000',
    payTo: chain.payTo,
    maxTimeoutSeconds: 60,
    extra: { feePayer: chain.feePayer },
    ...overrides,
  };
}

/** A payment built and signed by the official SVM client (its own RPC calls go to the chain) with `secretKey` for `accepted`. */
export async function signedSolanaPayment(chain: SolanaDevChain, secretKey: Uint8Array, accepted: PaymentRequirements): Promise<PaymentPayload> {
  const signer = await createKeyPairSignerFromBytes(secretKey);
  const client = new x402Client().register(chain.network, new ExactSvmScheme(signer, { rpcUrl: chain.rpcUrl }));
  client.setSpendControls({ allowedAssets: [{ network: chain.network, asset: accepted.asset }] });
  const challenge: PaymentRequired = { x402Version: 2, resource: { url: 'http://localhost/test' }, accepts: [accepted] };
  return client.createPaymentPayload(challenge);
}
