import type { Address } from '@solana/kit';
import { getMintDecoder, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { SolanaChainProcess } from './solana-chain-process.js';
import { SOLANA_DEV_KEYS, SOLANA_DEV_NETWORK, SOLANA_DEV_USDC_DECIMALS } from './solana-dev-keys.js';
import { usdcAccountOf } from './solana-genesis.js';

export interface SolanaDevChainOptions {
  /** Attach to a running Solana dev chain (DEVCHAIN_SOLANA_RPC_URL in the API) instead of starting one. */
  rpcUrl?: string;
}

/**
 * A local Solana with real execution: LiteSVM behind a small JSON-RPC front, in a process of its own, holding
 * a test USDC mint and funded dev accounts (solana-dev-keys.ts). Roles: `payTo` receives, `payerSecretKeys`
 * pay, `feePayer` is the facilitator's (it pays every settlement's fee). All addresses are fixed, so every
 * process attached to one chain agrees on them.
 */
export class SolanaDevChain {
  readonly network = SOLANA_DEV_NETWORK;
  readonly usdcMint: Address = SOLANA_DEV_KEYS.usdcMint.address;
  readonly usdcDecimals = SOLANA_DEV_USDC_DECIMALS;
  readonly payTo: Address = SOLANA_DEV_KEYS.payTo.address;
  readonly feePayer: Address = SOLANA_DEV_KEYS.feePayer.address;
  readonly mintAuthority: Address = SOLANA_DEV_KEYS.mintAuthority.address;

  private constructor(
    readonly rpcUrl: string,
    private readonly chainProcess: SolanaChainProcess | undefined,
  ) {}

  static async start(options: SolanaDevChainOptions = {}): Promise<SolanaDevChain> {
    const chainProcess = options.rpcUrl ? undefined : await SolanaChainProcess.start();
    const chain = new SolanaDevChain(options.rpcUrl ?? chainProcess!.rpcUrl, chainProcess);
    try {
      await chain.assertIsDevChain();
    } catch (error) {
      await chainProcess?.stop();
      throw error;
    }
    return chain;
  }

  /** Funded payers' keys (public, test-only): 64 bytes each, for createKeyPairSignerFromBytes. */
  get payerSecretKeys(): readonly Uint8Array[] {
    return SOLANA_DEV_KEYS.payers.map((payer) => payer.secretKey);
  }

  get payerAddresses(): readonly Address[] {
    return SOLANA_DEV_KEYS.payers.map((payer) => payer.address);
  }

  /** The facilitator's fee payer key (public, test-only), for toFacilitatorSvmSigner. */
  get feePayerSecretKey(): Uint8Array {
    return SOLANA_DEV_KEYS.feePayer.secretKey;
  }

  /** The process id of the chain's own process, when this object started it. */
  get pid(): number | undefined {
    return this.chainProcess?.pid;
  }

  /** An owner's test USDC, in its associated token account (0 when it has none). */
  async usdcBalanceOf(owner: Address): Promise<bigint> {
    const tokenAccount = await usdcAccountOf(owner);
    const { value } = (await this.rpc('getAccountInfo', [tokenAccount, { encoding: 'base64' }])) as { value: unknown };
    if (!value) return 0n;
    const { value: balance } = (await this.rpc('getTokenAccountBalance', [tokenAccount])) as { value: { amount: string } };
    return BigInt(balance.amount);
  }

  /** Throws when the chain does not answer; cheap enough to run before each payment operation. */
  async assertReachable(timeoutMs = 2000): Promise<void> {
    const health = await this.rpc('getHealth', [], timeoutMs);
    if (health !== 'ok') throw new Error(`the Solana dev chain at ${this.rpcUrl} answered getHealth with ${JSON.stringify(health)}`);
  }

  /** Stops the chain's process if this object started it. */
  async stop(): Promise<void> {
    await this.chainProcess?.stop();
  }

  /** One JSON-RPC call; throws the chain's error. */
  async rpc(method: string, params: unknown[], timeoutMs = 5000): Promise<unknown> {
    const response = await fetch(this.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!response.ok) throw new Error(`the Solana dev chain answered HTTP ${response.status}`);
    const answer = (await response.json()) as { result?: unknown; error?: { code: number; message: string } };
    if (answer.error) throw Object.assign(new Error(`${method}: ${answer.error.message}`), { code: answer.error.code });
    return answer.result;
  }

  /** An attached URL must lead to this chain: the test USDC at its fixed address, with its decimals. */
  private async assertIsDevChain(): Promise<void> {
    const { value } = (await this.rpc('getAccountInfo', [this.usdcMint, { encoding: 'base64' }])) as { value: { owner: string; data: [string, string] } | null };
    const decimals = value?.owner === TOKEN_PROGRAM_ADDRESS ? getMintDecoder().decode(Buffer.from(value.data[0], 'base64')).decimals : undefined;
    if (decimals !== this.usdcDecimals) throw new Error(`${this.rpcUrl} is not a Solana dev chain: no test USDC mint at ${this.usdcMint}`);
  }
}
