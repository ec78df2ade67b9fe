import { DevChain, LocalFacilitatorClient } from '@fileshift/devchain';
import { GuardedFacilitatorClient } from '@fileshift/x402-nest';
import type { FacilitatorClient } from '@x402/core/server';
import { privateKeyToAccount } from 'viem/accounts';
import { logRefusedFacilitatorError } from './log-refused-facilitator-error.js';
import type { DevChainInfo } from './payment-rails.js';

/** Dev mode: the local chain, its in-process facilitator, and the facts a newcomer needs to pay. */
export async function startDevPayments(rpcUrl?: string): Promise<{ info: DevChainInfo; facilitator: FacilitatorClient; stop: () => Promise<void> }> {
  const chain = await DevChain.start({ rpcUrl });
  const payerPrivateKey = chain.payerPrivateKeys[0]!;
  const facilitator = new LocalFacilitatorClient(chain);
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
    facilitator: new GuardedFacilitatorClient(facilitator, () => chain.assertReachable(), logRefusedFacilitatorError),
    stop: async () => {
      facilitator.dispose();
      await chain.stop();
    },
  };
}
