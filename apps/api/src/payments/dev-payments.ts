import { DevChain, FacilitatorThread } from '@fileshift/devchain';
import { GuardedFacilitatorClient } from '@fileshift/x402-nest';
import { privateKeyToAccount } from 'viem/accounts';
import type { DevChainInfo } from './payment-rails.js';

/** Dev mode: the local chain, its in-process facilitator, and the facts a newcomer needs to pay. */
export async function startDevPayments(
  rpcUrl: string | undefined,
  onRefusedError: (operation: 'verify' | 'settle', error: unknown) => void,
): Promise<{ info: DevChainInfo; facilitator: GuardedFacilitatorClient; stop: () => Promise<void> }> {
  const chain = await DevChain.start({ rpcUrl });
  const payerPrivateKey = chain.payerPrivateKeys[0]!;
  // In a thread of its own: its signature arithmetic would otherwise hold up every request of this process.
  const facilitator = new FacilitatorThread(chain.rpcUrl);
  return {
    info: {
      rpcUrl: chain.rpcUrl,
      chainId: chain.chainId,
      network: chain.network,
      usdcAddress: chain.usdcAddress,
      payTo: chain.payTo,
      payerAddress: privateKeyToAccount(payerPrivateKey).address,
      payerPrivateKey,
    },
    // The RPC probe makes a stopped chain a 503 (nothing charged) rather than a refused payment.
    facilitator: new GuardedFacilitatorClient(facilitator, () => chain.assertReachable(), onRefusedError),
    stop: async () => {
      await facilitator.dispose();
      await chain.stop();
    },
  };
}
