import type { FacilitatorClient } from '@x402/core/server';
import { x402Facilitator } from '@x402/core/facilitator';
import type { PaymentPayload, PaymentRequirements, SettleResponse, SupportedResponse, VerifyResponse } from '@x402/core/types';
import { toFacilitatorEvmSigner } from '@x402/evm';
import { registerExactEvmScheme } from '@x402/evm/exact/facilitator';
import { createWalletClient, http, publicActions } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { type DevChain, devChainDefinition } from './dev-chain.js';

/**
 * An in-process x402 facilitator for the dev chain: verifies EIP-3009 authorizations and settles
 * them on anvil with the facilitator account paying gas. Usable wherever a FacilitatorClient is.
 */
export class LocalFacilitatorClient implements FacilitatorClient {
  private readonly facilitator: x402Facilitator;
  private lastSettlement: Promise<unknown> = Promise.resolve();

  constructor(chain: DevChain) {
    const account = privateKeyToAccount(chain.facilitatorPrivateKey);
    const client = createWalletClient({ account, chain: devChainDefinition(chain.rpcUrl), transport: http(chain.rpcUrl), pollingInterval: 20 }).extend(publicActions);
    const signer = toFacilitatorEvmSigner({ ...(client as any), address: account.address }, { confirmationTimeoutMs: 30_000 });
    // anvil mines each transaction as it arrives: the receipt usually exists at once, so ask before polling.
    signer.waitForTransactionReceipt = async ({ hash }: { hash: `0x${string}` }) =>
      (await client.getTransactionReceipt({ hash }).catch(() => null)) ?? client.waitForTransactionReceipt({ hash, timeout: 30_000 });
    this.facilitator = registerExactEvmScheme(new x402Facilitator(), { signer, networks: chain.network });
  }

  verify(payload: PaymentPayload, requirements: PaymentRequirements): Promise<VerifyResponse> {
    return this.facilitator.verify(payload, requirements);
  }

  /** One settlement at a time: the facilitator account's transactions must not race for nonces. */
  settle(payload: PaymentPayload, requirements: PaymentRequirements): Promise<SettleResponse> {
    const settled = this.lastSettlement.then(() => this.facilitator.settle(payload, requirements));
    this.lastSettlement = settled.catch(() => undefined);
    return settled;
  }

  async getSupported(): Promise<SupportedResponse> {
    return this.facilitator.getSupported() as SupportedResponse;
  }
}
