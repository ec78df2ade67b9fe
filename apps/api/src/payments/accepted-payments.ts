import type { AcceptedPayment } from '@fileshift/x402-nest';
import type { PaymentConfig } from '../config/app-config.js';

/** The dev chain's facts that payments need. */
export interface DevChainFacts {
  rpcUrl: string;
  chainId: number;
  network: string;
  usdcAddress: string;
  payTo: string;
}

/**
 * Pure: the ways this service accepts payment. Dev mode: the local chain's test USDC. Live mode:
 * each configured network (EVM and/or Solana) with its payTo.
 */
export function acceptedPayments(config: PaymentConfig, devChain?: DevChainFacts): AcceptedPayment[] {
  const evmExtra = { name: config.evm.assetName, version: config.evm.assetVersion };
  if (config.mode === 'dev') {
    if (!devChain) throw new Error('dev payments need the dev chain');
    return [
      {
        scheme: 'exact',
        network: devChain.network,
        asset: devChain.usdcAddress,
        payTo: devChain.payTo,
        maxTimeoutSeconds: config.maxTimeoutSeconds,
        extra: { name: 'USD Coin', version: '2' },
      },
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
