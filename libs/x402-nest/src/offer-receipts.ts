import { createOfferReceiptExtension, declareOfferReceiptExtension, OFFER_RECEIPT, type OfferReceiptIssuer } from '@x402/extensions/offer-receipt';
import type { x402ResourceServer } from '@x402/core/server';
import { SignedOfferCache } from './signed-offer-cache.js';

/** How long a signed offer is valid (its `validUntil`): the longest a payment signed against it may take to arrive. */
export const OFFER_VALIDITY_SECONDS = 300;
/**
 * A signed offer is handed out again for this long, and a kept challenge is rebuilt after this long: together an
 * offer is at most a minute old when a client gets it, with most of its validity left.
 */
export const SIGNED_OFFER_REUSE_MS = 30_000;
export const SIGNED_CHALLENGE_MAX_AGE_MS = 30_000;

/**
 * x402 `offer-receipt`: every challenge carries an offer per accepted payment, and every settlement a receipt naming
 * its transaction, both signed by `issuer`. Registers the extension's server hooks on `resourceServer`; answers what
 * each route declares. Offers are signed once per content and reused (a paid request rebuilds its challenge too).
 */
export function useOfferReceipts(resourceServer: x402ResourceServer, issuer: OfferReceiptIssuer): Record<string, unknown> {
  resourceServer.registerExtension(createOfferReceiptExtension(new SignedOfferCache(issuer, SIGNED_OFFER_REUSE_MS)));
  // The transaction is named: a receipt is for proving what was paid, and the payer already knows it.
  return declareOfferReceiptExtension({ includeTxHash: true, offerValiditySeconds: OFFER_VALIDITY_SECONDS });
}

/** The settlement extensions of a payment answered again (payment-identifier): a fresh receipt of the first settlement. */
export async function repeatedReceipt(issuer: OfferReceiptIssuer, resourceUrl: string, settled: { payer: string | null; network: string; txHash: string }): Promise<Record<string, unknown>> {
  if (!settled.payer) return {};
  return { [OFFER_RECEIPT]: { info: { receipt: await issuer.issueReceipt(resourceUrl, settled.payer, settled.network, settled.txHash) } } };
}
