import type { FacilitatorClient } from '@x402/core/server';
import { x402Facilitator } from '@x402/core/facilitator';
import type { PaymentPayload, PaymentRequirements, SettleResponse, SupportedResponse, VerifyResponse } from '@x402/core/types';
import { toFacilitatorEvmSigner } from '@x402/evm';
import { registerExactEvmScheme } from '@x402/evm/exact/facilitator';
import { createWalletClient, publicActions, type WriteContractParameters } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { type DevChain, devChainDefinition } from './dev-chain.js';
import { SettlementSender } from './settlement-sender.js';
import { WebSocketRpc } from './websocket-rpc.js';

/**
 * An in-process x402 facilitator for the dev chain: verifies EIP-3009 authorizations and settles
 * them on anvil with the facilitator account paying gas. Usable wherever a FacilitatorClient is.
 *
 * The official facilitator makes several sequential RPC calls per payment, so it talks to anvil
 * over a WebSocket (a third of the latency of an HTTP request per call), and its transactions go
 * out in one round trip each (see SettlementSender).
 */
export class LocalFacilitatorClient implements FacilitatorClient {
  private readonly facilitator: x402Facilitator;
  private readonly rpc: WebSocketRpc;
  private lastSettlement: Promise<unknown> = Promise.resolve();

  constructor(chain: DevChain) {
    const account = privateKeyToAccount(chain.facilitatorPrivateKey);
    this.rpc = new WebSocketRpc(chain.webSocketUrl);
    const client = createWalletClient({ account, chain: devChainDefinition(chain.rpcUrl), transport: this.rpc.transport() }).extend(publicActions);
    const sender = new SettlementSender(client);
    const signer = toFacilitatorEvmSigner({
      ...(client as any),
      address: account.address,
      writeContract: (parameters: WriteContractParameters) => sender.writeContract(parameters),
    });
    signer.waitForTransactionReceipt = (parameters: { hash: `0x${string}` }) => sender.waitForTransactionReceipt(parameters);
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

  /** Closes the WebSocket to the chain. */
  dispose(): void {
    this.rpc.close();
  }
}
