import type { AcceptedPayment } from '@fileshift/x402-nest';
import type { PaymentRequired } from '@x402/core/types';
import type { PaymentMode } from '../config/app-config.js';
import type { DevChainInfo } from '../payments/payment-rails.js';
import { USDC_DECIMALS } from '../payments/pricing.js';
import type { AvailableConversions } from './available-conversions.js';
import type { PaidResource } from './paid-resources.js';

/**
 * /.well-known/x402.json: the paid resources with their prices, networks, assets and payTo. A fixed-price resource
 * also carries its challenge (`paymentRequired`, as an unpaid request's 402 has it, without `error`): everything a
 * client needs to sign before its first request, so an upload crosses the wire once.
 */
export function renderWellKnownX402(input: {
  baseUrl: string;
  version: string;
  resources: PaidResource[];
  accepts: readonly AcceptedPayment[];
  paymentsMode: PaymentMode;
  devChain?: DevChainInfo;
  conversions: AvailableConversions;
  /** A resource's x402 extensions as its challenge declares them (payment identifiers, Bazaar discovery metadata). */
  extensionsOf: (resource: PaidResource) => Record<string, unknown>;
  /** The challenge of each fixed-price resource by operation id (see publishedChallenges); absent ones are not published. */
  challenges: ReadonlyMap<string, Readonly<PaymentRequired>>;
}) {
  return {
    x402Version: 2,
    service: 'fileshift',
    version: input.version,
    openapi: `${input.baseUrl}/openapi.json`,
    /** `dev`: test USDC on local chains, nothing of value changes hands; `live`: real networks. */
    paymentsMode: input.paymentsMode,
    accepts: input.accepts.map((accepted) => ({
      scheme: accepted.scheme,
      network: accepted.network,
      asset: accepted.asset,
      payTo: accepted.payTo,
      currency: 'USDC',
      decimals: USDC_DECIMALS,
      ...(accepted.maxTimeoutSeconds ? { maxTimeoutSeconds: accepted.maxTimeoutSeconds } : {}),
      ...(accepted.extra ? { extra: accepted.extra } : {}),
    })),
    resources: input.resources.map((r) => {
      const challenge = input.challenges.get(r.operationId);
      return {
        resource: `${input.baseUrl}${r.path}`,
        method: r.method,
        operationId: r.operationId,
        description: r.description,
        price: r.price,
        // With its challenge: the requirements in full (maxTimeoutSeconds, and extra: the EIP-712 domain, Solana's fee payer).
        accepts: challenge
          ? challenge.accepts
          : input.accepts.map((accepted) => ({
              scheme: accepted.scheme,
              network: accepted.network,
              asset: accepted.asset,
              payTo: accepted.payTo,
              ...(r.price.mode === 'fixed' ? { amount: r.price.atomic_units } : {}),
            })),
        extensions: input.extensionsOf(r),
        ...(challenge ? { paymentRequired: withoutError(challenge) } : {}),
      };
    }),
    /** What the running workers convert now (source format → targets). */
    conversions: input.conversions,
    ...(input.devChain
      ? {
          devChain: {
            note: 'Development mode: a local anvil chain with a test USDC. The key below is a public anvil test key.',
            rpcUrl: input.devChain.rpcUrl,
            chainId: input.devChain.chainId,
            network: input.devChain.network,
            usdc: input.devChain.usdcAddress,
            payTo: input.devChain.payTo,
            payerAddress: input.devChain.payerAddress,
            payerPrivateKey: input.devChain.payerPrivateKey,
          },
          solanaDevChain: {
            note: 'Development mode: a local Solana (LiteSVM) with a test USDC mint; the network id is devnet\'s, the mint is not devnet\'s USDC. payerSecretKey is a public test key: 64 bytes (seed, then public key) as a JSON byte array, as solana-keygen writes it.',
            rpcUrl: input.devChain.solana.rpcUrl,
            network: input.devChain.solana.network,
            usdc: input.devChain.solana.usdcMint,
            decimals: input.devChain.solana.usdcDecimals,
            payTo: input.devChain.solana.payTo,
            payerAddress: input.devChain.solana.payerAddress,
            payerSecretKey: input.devChain.solana.payerSecretKey,
          },
        }
      : {}),
  };
}

/** A challenge as published: what an unpaid request's 402 carries, less the reason it was answered. */
function withoutError({ error: _error, ...challenge }: Readonly<PaymentRequired>): Omit<PaymentRequired, 'error'> {
  return challenge;
}
