import { x402Client } from '@x402/core/client';
import type { PaymentPayload, PaymentRequired, PaymentRequirements } from '@x402/core/types';
import { toClientEvmSigner } from '@x402/evm';
import { registerExactEvmScheme } from '@x402/evm/exact/client';
import { privateKeyToAccount } from 'viem/accounts';
import type { DevChain } from '../../src/dev-chain.js';

/** What a service on `chain` asks for a 0.002 USDC call, with `overrides`. */
export function requirementsOn(chain: DevChain, overrides: Partial<PaymentRequirements> = {}): PaymentRequirements {
  return {
    scheme: 'exact',
    network: chain.network,
    asset: chain.usdcAddress,
    amount: '2000',
    payTo: chain.payTo,
    maxTimeoutSeconds: 300,
    extra: { name: 'USD Coin', version: '2' },
    ...overrides,
  };
}

/** A payment signed by the official client with `key` for `accepted`. */
export async function signedPayment(chain: DevChain, key: `0x${string}`, accepted: PaymentRequirements): Promise<PaymentPayload> {
  const client = registerExactEvmScheme(new x402Client(), { signer: toClientEvmSigner(privateKeyToAccount(key), chain.publicClient as never) });
  client.setSpendControls({ allowedAssets: [{ network: chain.network, asset: chain.usdcAddress }] });
  const challenge: PaymentRequired = { x402Version: 2, resource: { url: 'http://localhost/test' }, accepts: [accepted] };
  return client.createPaymentPayload(challenge);
}
