import { DevChain, FacilitatorThread, SolanaDevChain } from '@fileshift/devchain';
import { GuardedFacilitatorClient } from '@fileshift/x402-nest';
import type { FacilitatorClient } from '@x402/core/server';
import { privateKeyToAccount } from 'viem/accounts';
import { FacilitatorByNetwork } from './facilitator-by-network.js';
import type { DevChainInfo } from './payment-rails.js';

/** Where dev mode finds its chains: running ones to attach to (shared by several processes), or none, to start its own. */
export interface DevChainUrls {
  rpcUrl?: string;
  solanaRpcUrl?: string;
}

/** Dev mode: the local EVM chain and the local Solana, one in-process facilitator for both, and the facts a newcomer needs to pay. */
export async function startDevPayments(
  urls: DevChainUrls,
  onRefusedError: (operation: 'verify' | 'settle', error: unknown) => void,
): Promise<{ info: DevChainInfo; facilitator: FacilitatorClient; stop: () => Promise<void> }> {
  const [chain, solana] = await startBoth(DevChain.start({ rpcUrl: urls.rpcUrl }), SolanaDevChain.start({ rpcUrl: urls.solanaRpcUrl }));
  const payerPrivateKey = chain.payerPrivateKeys[0]!;
  // In a thread of its own: its signature arithmetic would otherwise hold up every request of this process.
  const facilitator = new FacilitatorThread(chain.rpcUrl, { solanaRpcUrl: solana.rpcUrl });
  // Each chain's probe makes a refusal while that chain is stopped a 503 (nothing charged) rather than a refused payment.
  const guarded = (probe: () => Promise<void>) => new GuardedFacilitatorClient(facilitator, probe, onRefusedError);
  return {
    info: {
      rpcUrl: chain.rpcUrl,
      chainId: chain.chainId,
      network: chain.network,
      usdcAddress: chain.usdcAddress,
      payTo: chain.payTo,
      payerAddress: privateKeyToAccount(payerPrivateKey).address,
      payerPrivateKey,
      solana: {
        rpcUrl: solana.rpcUrl,
        network: solana.network,
        usdcMint: solana.usdcMint,
        usdcDecimals: solana.usdcDecimals,
        payTo: solana.payTo,
        payerAddress: solana.payerAddresses[0]!,
        payerSecretKey: [...solana.payerSecretKeys[0]!],
      },
    },
    facilitator: new FacilitatorByNetwork(
      guarded(() => chain.assertReachable()),
      guarded(() => solana.assertReachable()),
    ),
    stop: async () => {
      await facilitator.dispose();
      await Promise.all([chain.stop(), solana.stop()]);
    },
  };
}

/** Both chains, started side by side; when one fails, the other is stopped and the failure thrown. */
async function startBoth(evm: Promise<DevChain>, solana: Promise<SolanaDevChain>): Promise<[DevChain, SolanaDevChain]> {
  const [a, b] = await Promise.allSettled([evm, solana]);
  if (a.status === 'fulfilled' && b.status === 'fulfilled') return [a.value, b.value];
  await Promise.all([a.status === 'fulfilled' ? a.value.stop() : undefined, b.status === 'fulfilled' ? b.value.stop() : undefined]);
  throw a.status === 'rejected' ? a.reason : (b as PromiseRejectedResult).reason;
}
