import type { AcceptedPayment } from '@fileshift/x402-nest';
import type { PaymentConfig } from '../config/app-config.js';

/** The dev chains' facts that payments need: the EVM one (anvil) and the Solana one. */
export interface DevChainFacts {
  rpcUrl: string;
  chainId: number;
  network: string;
  usdcAddress: string;
  payTo: string;
  solana: SolanaDevChainFacts;
}

/** The Solana dev chain's facts that payments need. */
export interface SolanaDevChainFacts {
  rpcUrl: string;
  network: string;
  usdcMint: string;
  usdcDecimals: number;
  payTo: string;
}

/**
 * Pure: the ways this service accepts payment. Dev mode: the local chains' test USDC, EVM first, then Solana.
 * Live mode: each configured network (EVM and/or Solana) with its payTo.
 */
export function acceptedPayments(config: PaymentConfig, devChain?: DevChainFacts): AcceptedPayment[] {
  const evmExtra = { name: config.evm.assetName, version: config.evm.assetVersion };
  if (config.mode === 'dev') {
    if (!devChain) throw new Error('dev payments need the dev chains');
    return [
      {
        scheme: 'exact',
        network: devChain.network,
        asset: devChain.usdcAddress,
        payTo: devChain.payTo,
        maxTimeoutSeconds: config.maxTimeoutSeconds,
        extra: { name: 'USD Coin', version: '2' },
      },
      // The mint is the asset: priced as an amount of it, never as money (which would mean devnet's real USDC).
      // The facilitator's fee payer (extra.feePayer) comes from its supported kinds, as in live mode.
      { scheme: 'exact', network: devChain.solana.network, asset: devChain.solana.usdcMint, payTo: devChain.solana.payTo, maxTimeoutSeconds: config.maxTimeoutSeconds },
    ];
  }
  const accepts: AcceptedPayment[] = [];
  if (config.evm.payTo) {
    accepts.push({ scheme: 'exact', network: config.evm.network, asset: config.evm.asset, payTo: config.evm.payTo, maxTimeoutSeconds: config.maxTimeoutSeconds, extra: evmExtra });
  }
  if (config.svm.payTo) {
    accepts.push({ scheme: 'exact', network: config.svm.network, asset: config.svm.asset, payTo: config.svm.payTo, maxTimeoutSeconds: config.maxTimeoutSeconds });
  }
  return accepts;
}
