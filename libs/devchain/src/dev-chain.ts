import { setTimeout as sleep } from 'node:timers/promises';
import { type Chain, createPublicClient, createWalletClient, defineChain, getAddress, getContractAddress, type Hex, http, type PublicClient, type Transport, type WalletClient } from 'viem';
import { type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts';
import {
  ANVIL_TEST_KEYS,
  DEPLOYER_INDEX,
  DEV_CHAIN_ID,
  DEV_NETWORK,
  FIRST_PAYER_INDEX,
  INITIAL_USDC_PER_ACCOUNT,
  PAY_TO_INDEX,
} from './anvil-accounts.js';
import { AnvilProcess } from './anvil-process.js';
import artifact from './test-usdc.artifact.json' with { type: 'json' };

export const TEST_USDC_ABI = artifact.abi as readonly unknown[];

/** What the deployer sends to set a chain up: the token, then one mint per default account. */
const SETUP_TRANSACTIONS = 1 + ANVIL_TEST_KEYS.length;
/** How long an attaching process waits for another one's setup to finish (it takes about 0.3 s). */
const SETUP_WAIT_MS = 15_000;

export const devChainDefinition = (rpcUrl: string): Chain =>
  defineChain({
    id: DEV_CHAIN_ID,
    name: 'Fileshift dev chain (anvil)',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });

export interface DevChainOptions {
  /** Attach to a running anvil (chain id 31337, standard test mnemonic) instead of starting one. */
  rpcUrl?: string;
}

/**
 * A local EVM chain with real settlement: anvil, our EIP-3009 test USDC deployed, and every default
 * account funded. Account roles: 0 deploys, 2 receives (payTo),
 * 3..9 are payers.
 */
export class DevChain {
  readonly chainId = DEV_CHAIN_ID;
  readonly network: `${string}:${string}` = DEV_NETWORK;

  private constructor(
    readonly rpcUrl: string,
    readonly usdcAddress: `0x${string}`,
    readonly publicClient: PublicClient,
    private readonly anvil: AnvilProcess | undefined,
  ) {}

  static async start(options: DevChainOptions = {}): Promise<DevChain> {
    const anvil = options.rpcUrl ? undefined : await AnvilProcess.start();
    const rpcUrl = options.rpcUrl ?? anvil!.rpcUrl;
    try {
      const chain = devChainDefinition(rpcUrl);
      const publicClient = createPublicClient({ chain, transport: http(rpcUrl) }) as PublicClient;
      const actualChainId = await publicClient.getChainId();
      if (actualChainId !== DEV_CHAIN_ID) throw new Error(`the dev chain at ${rpcUrl} has chain id ${actualChainId}, expected ${DEV_CHAIN_ID}`);
      const deployer = createWalletClient({ chain, transport: http(rpcUrl), account: privateKeyToAccount(ANVIL_TEST_KEYS[DEPLOYER_INDEX]) });
      const usdcAddress = (await existingToken(publicClient, deployer.account.address)) ?? (await deployOrJoin(publicClient, deployer));
      return new DevChain(rpcUrl, usdcAddress, publicClient, anvil);
    } catch (error) {
      await anvil?.stop();
      throw error;
    }
  }

  /** anvil answers JSON-RPC over WebSocket on the same port. */
  get webSocketUrl(): string {
    return this.rpcUrl.replace(/^http/, 'ws');
  }

  get payTo(): `0x${string}` {
    return privateKeyToAccount(ANVIL_TEST_KEYS[PAY_TO_INDEX]).address;
  }

  /** Funded payer keys (public anvil test keys), for clients in dev mode and tests. */
  get payerPrivateKeys(): readonly Hex[] {
    return ANVIL_TEST_KEYS.slice(FIRST_PAYER_INDEX);
  }

  async usdcBalanceOf(address: `0x${string}`): Promise<bigint> {
    return (await this.publicClient.readContract({
      address: this.usdcAddress,
      abi: TEST_USDC_ABI,
      functionName: 'balanceOf',
      args: [address],
    })) as bigint;
  }

  /** Throws when the chain does not answer; cheap enough to run before each payment operation. */
  async assertReachable(timeoutMs = 2000): Promise<void> {
    const controller = AbortSignal.timeout(timeoutMs);
    const response = await fetch(this.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      signal: controller,
    });
    if (!response.ok) throw new Error(`dev chain RPC answered HTTP ${response.status}`);
  }

  /** Stops anvil if this object started it. */
  async stop(): Promise<void> {
    await this.anvil?.stop();
  }
}

/**
 * The token is the deployer's first contract, so its address is fixed. A chain that already has
 * it (a shared anvil behind DEVCHAIN_RPC_URL) is reused as it is, once its setup is complete:
 * another process may still be minting.
 */
async function existingToken(publicClient: PublicClient, deployer: `0x${string}`): Promise<`0x${string}` | undefined> {
  let sent = await publicClient.getTransactionCount({ address: deployer });
  if (sent === 0) return undefined;
  const address = getContractAddress({ from: deployer, nonce: 0n });
  const code = await publicClient.getCode({ address });
  if (!code || code === '0x') throw new Error(`the dev chain's deployer has sent transactions but no token is at ${address}`);
  const deadline = Date.now() + SETUP_WAIT_MS;
  while (sent < SETUP_TRANSACTIONS) {
    if (Date.now() > deadline) throw new Error(`the dev chain's token at ${address} is not funded: its deployer sent ${sent} of ${SETUP_TRANSACTIONS} setup transactions`);
    await sleep(50);
    sent = await publicClient.getTransactionCount({ address: deployer });
  }
  return address;
}

/**
 * Processes attaching to a fresh chain at once all try to deploy. The deployment's nonce is fixed at 0,
 * so one wins and the others are refused (instead of deploying a second token at nonce 1) and use the winner's.
 */
async function deployOrJoin(publicClient: PublicClient, deployer: WalletClient<Transport, Chain, PrivateKeyAccount>): Promise<`0x${string}`> {
  try {
    return await deployAndFund(publicClient, deployer);
  } catch (error) {
    // The winner's deployment may still be pending when ours is refused (the same transaction "already imported"):
    // wait for it to be mined before reading what it made.
    const deadline = Date.now() + SETUP_WAIT_MS;
    while ((await publicClient.getTransactionCount({ address: deployer.account.address })) === 0 && Date.now() < deadline) await sleep(50);
    const deployedByAnother = await existingToken(publicClient, deployer.account.address);
    if (!deployedByAnother) throw error;
    return deployedByAnother;
  }
}

async function deployAndFund(publicClient: PublicClient, deployer: WalletClient<Transport, Chain, PrivateKeyAccount>): Promise<`0x${string}`> {
  const deployHash = await deployer.deployContract({ abi: TEST_USDC_ABI, bytecode: artifact.bytecode as Hex, nonce: 0 });
  const receipt = await publicClient.waitForTransactionReceipt({ hash: deployHash, pollingInterval: 50 });
  const usdcAddress = getAddress(receipt.contractAddress!);
  const mints: Hex[] = [];
  for (const key of ANVIL_TEST_KEYS) {
    mints.push(
      await deployer.writeContract({
        address: usdcAddress,
        abi: TEST_USDC_ABI,
        functionName: 'mint',
        args: [privateKeyToAccount(key).address, INITIAL_USDC_PER_ACCOUNT],
      }),
    );
  }
  await Promise.all(mints.map((hash) => publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 })));
  return usdcAddress;
}
