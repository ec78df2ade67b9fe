import { createKeyPairSignerFromBytes } from '@solana/kit';
import { x402Facilitator } from '@x402/core/facilitator';
import type { FacilitatorClient } from '@x402/core/server';
import type { Network, PaymentPayload, PaymentRequirements, SettleResponse, SupportedResponse, VerifyResponse } from '@x402/core/types';
import { type FacilitatorSvmSigner, toFacilitatorSvmSigner } from '@x402/svm';
import { registerExactSvmScheme } from '@x402/svm/exact/facilitator';
import type { SolanaDevChain } from './solana-dev-chain.js';

/** What a facilitator needs to settle on the Solana dev chain: its network, and the official signer over the fee payer's key. */
export interface DevSolanaScheme {
  network: Network;
  signer: FacilitatorSvmSigner;
}

/**
 * The official SVM facilitator signer (toFacilitatorSvmSigner, untouched) over the dev chain's fee payer, talking to
 * the chain's JSON-RPC front. Every facilitator on one chain shares this fee payer: Solana has no nonces to race for.
 */
export async function devSolanaScheme(chain: SolanaDevChain): Promise<DevSolanaScheme> {
  const feePayer = await createKeyPairSignerFromBytes(chain.feePayerSecretKey);
  return { network: chain.network, signer: toFacilitatorSvmSigner(feePayer, { defaultRpcUrl: chain.rpcUrl }) };
}

export function registerDevSolanaScheme(facilitator: x402Facilitator, scheme: DevSolanaScheme): x402Facilitator {
  return registerExactSvmScheme(facilitator, { signer: scheme.signer, networks: scheme.network });
}

/**
 * An in-process x402 facilitator for the Solana dev chain alone (`exact` on SVM, @x402/svm's own code): it checks
 * the payer's transfer, co-signs as fee payer and has the chain execute it. The service's dev facilitator serves
 * both chains in one client (LocalFacilitatorClient with `solana`, or FacilitatorThread with `solanaRpcUrl`).
 */
export class LocalSolanaFacilitatorClient implements FacilitatorClient {
  private constructor(private readonly facilitator: x402Facilitator) {}

  static async start(chain: SolanaDevChain): Promise<LocalSolanaFacilitatorClient> {
    return new LocalSolanaFacilitatorClient(registerDevSolanaScheme(new x402Facilitator(), await devSolanaScheme(chain)));
  }

  verify(payload: PaymentPayload, requirements: PaymentRequirements): Promise<VerifyResponse> {
    return this.facilitator.verify(payload, requirements);
  }

  settle(payload: PaymentPayload, requirements: PaymentRequirements): Promise<SettleResponse> {
    return this.facilitator.settle(payload, requirements);
  }

  async getSupported(): Promise<SupportedResponse> {
    return this.facilitator.getSupported() as SupportedResponse;
  }
}
