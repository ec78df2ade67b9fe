import { GuardedFacilitatorClient } from '@fileshift/x402-nest';
import { type FacilitatorClient, HTTPFacilitatorClient, x402ResourceServer } from '@x402/core/server';
import { bazaarResourceServerExtension } from '@x402/extensions/bazaar';
import { ExactEvmScheme } from '@x402/evm/exact/server';
import { ExactSvmScheme } from '@x402/svm/exact/server';
import type { PaymentConfig } from '../config/app-config.js';
import { MeteredFacilitatorClient } from '../metrics/metered-facilitator.client.js';
import type { FacilitatorErrorKind, FacilitatorOperation } from '../metrics/service-metrics.js';
import { acceptedPayments } from './accepted-payments.js';
import { startDevPayments } from './dev-payments.js';
import { logRefusedFacilitatorError } from './log-refused-facilitator-error.js';
import { PaymentRails } from './payment-rails.js';

/** Hears each facilitator error (metrics); must not throw. */
export type FacilitatorErrorListener = (operation: FacilitatorOperation, kind: FacilitatorErrorKind) => void;

/** Dev mode: local chains (EVM and Solana) + in-process facilitator. Live mode: the remote facilitator and the configured networks. */
export async function createPaymentRails(config: PaymentConfig, onFacilitatorError: FacilitatorErrorListener = () => undefined): Promise<PaymentRails> {
  // A facilitator error the client only hears as invalid_payload: logged, and counted.
  const onRefusedError = (operation: 'verify' | 'settle', error: unknown) => {
    logRefusedFacilitatorError(operation, error);
    onFacilitatorError(operation, 'invalid_payload');
  };
  const metered = (guarded: FacilitatorClient) => new MeteredFacilitatorClient(guarded, (operation) => onFacilitatorError(operation, 'unavailable'));
  if (config.mode === 'dev') {
    const dev = await startDevPayments({ rpcUrl: config.devChainRpcUrl, solanaRpcUrl: config.devChainSolanaRpcUrl }, onRefusedError);
    // The Solana scheme without an RPC URL: the server side only shapes requirements (its fee payer from the facilitator).
    const resourceServer = withExtensions(
      new x402ResourceServer(metered(dev.facilitator))
        .register(dev.info.network as `${string}:${string}`, new ExactEvmScheme())
        .register(dev.info.solana.network as `${string}:${string}`, new ExactSvmScheme()),
    );
    return new PaymentRails('dev', acceptedPayments(config, dev.info), resourceServer, dev.info, dev.stop);
  }
  const authHeaders = config.facilitatorAuthHeaders;
  const facilitator = new GuardedFacilitatorClient(
    new HTTPFacilitatorClient({
      url: config.facilitatorUrl,
      timeoutMs: 30_000,
      ...(authHeaders ? { createAuthHeaders: async () => ({ verify: authHeaders, settle: authHeaders, supported: authHeaders }) } : {}),
    }),
    undefined,
    onRefusedError,
  );
  const accepts = acceptedPayments(config);
  const resourceServer = withExtensions(new x402ResourceServer(metered(facilitator)));
  for (const accepted of accepts) {
    const network = accepted.network as `${string}:${string}`;
    resourceServer.register(network, network.startsWith('solana:') ? new ExactSvmScheme() : new ExactEvmScheme());
  }
  return new PaymentRails('live', accepts, resourceServer, undefined);
}

/** The x402 extensions our challenges declare: Bazaar's server side adds each route's method to its metadata. */
function withExtensions(server: x402ResourceServer): x402ResourceServer {
  return server.registerExtension(bazaarResourceServerExtension);
}
