import { DevChain } from '@fileshift/devchain';
import { privateKeyToAccount } from 'viem/accounts';
import { startTestApp, type TestApp } from './test-app.js';
import { payingFetch } from './x402-payer.js';

/** The real service selling on a local anvil dev chain, with a payer holding the chain's test USDC. */
export interface PaidTestApp extends TestApp {
  chain: DevChain;
  /** fetch that pays an x402 challenge from the payer's account (the official x402 client). */
  pay: typeof fetch;
  /** Stops the service (and drops its database, queue and data), then the chain. */
  close(): Promise<void>;
}

/**
 * Starts a dev chain and the test app settling on it (its own database, queue prefix and data directory, as
 * `startTestApp`); `pay` signs with the chain's funded payer account number `payerIndex`.
 */
export async function startPaidTestApp({ payerIndex, env = {} }: { payerIndex: number; env?: Record<string, string> }): Promise<PaidTestApp> {
  const chain = await DevChain.start();
  try {
    const payer = chain.payerPrivateKeys[payerIndex];
    if (!payer) throw new Error(`the dev chain has no payer number ${payerIndex}`);
    const app = await startTestApp({ ...env, DEVCHAIN_RPC_URL: chain.rpcUrl });
    return {
      ...app,
      chain,
      pay: payingFetch(chain, privateKeyToAccount(payer)),
      async close() {
        await app.close();
        await chain.stop();
      },
    };
  } catch (error) {
    await chain.stop();
    throw error;
  }
}
