import type { FacilitatorClient } from '@x402/core/server';
import { x402Facilitator } from '@x402/core/facilitator';
import type { PaymentPayload, PaymentRequirements, SettleResponse, SupportedResponse, VerifyResponse } from '@x402/core/types';
import { toFacilitatorEvmSigner } from '@x402/evm';
import { registerExactEvmScheme } from '@x402/evm/exact/facilitator';
import { createWalletClient, publicActions, toHex, type WriteContractParameters } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { type DevChain, devChainDefinition } from './dev-chain.js';
import { SettlementSender } from './settlement-sender.js';
import { type DevSolanaScheme, registerDevSolanaScheme } from './solana-facilitator.js';
import { WebSocketRpc } from './websocket-rpc.js';

/**
 * An in-process x402 facilitator for the dev chain: verifies EIP-3009 authorizations and settles
 * them on anvil from an account of its own, funded with gas by anvil_setBalance. Usable wherever a FacilitatorClient is.
 * Given `solana` (devSolanaScheme), the same facilitator also serves the Solana dev chain: one client, both networks.
 *
 * The official facilitator makes several sequential RPC calls per payment, so it talks to anvil
 * over a WebSocket (a third of the latency of an HTTP request per call), and its transactions go
 * out in one round trip each (see SettlementSender).
 */
/** Gas money for a facilitator's own account: 1,000 ETH of the dev chain, set by anvil_setBalance. */
const GAS_FUNDS_WEI = 1000n * 10n ** 18n;

export interface LocalFacilitatorOptions {
  /** Also settle `exact` payments on the Solana dev chain. */
  solana?: DevSolanaScheme;
}

export class LocalFacilitatorClient implements FacilitatorClient {
  private readonly facilitator: x402Facilitator;
  private readonly rpc: WebSocketRpc;

  private readonly address: `0x${string}`;
  private funding: Promise<unknown> | undefined;

  constructor(chain: DevChain, options: LocalFacilitatorOptions = {}) {
    // Its own account, not a shared one: several facilitators (API instances) on one chain sending from
    // one account race for its nonces, and anvil can hold a transaction whose nonce another took.
    const account = privateKeyToAccount(generatePrivateKey());
    this.rpc = new WebSocketRpc(chain.webSocketUrl);
    this.address = account.address;
    const client = createWalletClient({ account, chain: devChainDefinition(chain.rpcUrl), transport: this.rpc.transport() }).extend(publicActions);
    const sender = new SettlementSender(client);
    const signer = toFacilitatorEvmSigner({
      ...(client as any),
      address: account.address,
      writeContract: (parameters: WriteContractParameters) => sender.writeContract(parameters),
    });
    signer.waitForTransactionReceipt = (parameters: { hash: `0x${string}` }) => sender.waitForTransactionReceipt(parameters);
    this.facilitator = registerExactEvmScheme(new x402Facilitator(), { signer, networks: chain.network });
    if (options.solana) registerDevSolanaScheme(this.facilitator, options.solana);
  }

  async verify(payload: PaymentPayload, requirements: PaymentRequirements): Promise<VerifyResponse> {
    await this.fundedFor(requirements);
    return this.facilitator.verify(payload, requirements);
  }

  /**
   * Settlements run side by side: only their transactions go out one at a time (SettlementSender), so the
   * facilitator's own checks before sending (it verifies the payment again) do not wait in that line.
   */
  async settle(payload: PaymentPayload, requirements: PaymentRequirements): Promise<SettleResponse> {
    await this.fundedFor(requirements);
    return this.facilitator.settle(payload, requirements);
  }

  async getSupported(): Promise<SupportedResponse> {
    return this.facilitator.getSupported() as SupportedResponse;
  }

  /** Only EVM settlements need the account's gas: a Solana payment neither waits for anvil nor fails with it. */
  private async fundedFor(requirements: PaymentRequirements): Promise<void> {
    if (!String(requirements?.network).startsWith('solana:')) await this.funded();
  }

  /** Funds the account once; a failed attempt is tried again at the next call. */
  private funded(): Promise<unknown> {
    this.funding ??= this.rpc.request('anvil_setBalance', [this.address, toHex(GAS_FUNDS_WEI)]).catch((error: unknown) => {
      this.funding = undefined;
      throw error;
    });
    return this.funding;
  }

  /** Closes the WebSocket to the chain. */
  dispose(): void {
    this.rpc.close();
  }
}
