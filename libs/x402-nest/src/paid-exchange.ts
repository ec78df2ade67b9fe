import type { HTTPAdapter } from '@x402/core/server';
import type { PaymentPayload } from '@x402/core/types';
import type { ReadPayment } from './payment-header.js';

/** `@x402/core`'s view of one request, with the price it is asked to pay: the routes' dynamic price reads it. */
export interface PricedAdapter extends HTTPAdapter {
  readonly priceAtomic: string;
}

/**
 * What the payment gate needs of one paid exchange, whatever transport carries it: an HTTP request to a `@Paid`
 * route, or an MCP tool call paid as that route's operation. The same operation has the same method, path and
 * resource URL on both, so its challenge, its ledger records and its payment identifiers are the same records.
 */
export interface PaidExchange {
  /** The payment presented (the PAYMENT-SIGNATURE or X-PAYMENT header, or `_meta["x402/payment"]`), read and checked, not verified. */
  presented(): ReadPayment;
  /** The HTTP method of the operation bought. */
  readonly method: string;
  /** Its path, without the query. */
  readonly path: string;
  /** The route pattern (`/api/x402/v1/convert-file/:job_id/result`) its route server is configured under. */
  readonly routePattern: string;
  /** Core's view of the exchange at `priceAtomic`, carrying `payment` once one is presented. */
  adapter(priceAtomic: string, payment?: PaymentPayload): PricedAdapter;
  /** What makes two exchanges the same request for a payment identifier (see requestFingerprint). */
  fingerprint(route: string, priceAtomic: string): string;
  /**
   * Hears the settlement's answer: `response` is what PAYMENT-RESPONSE carries (the settlement and the signed
   * receipt), `headers` core's other settlement headers, `facilitator` how long the facilitator took with the payment.
   */
  answerSettlement(response: Record<string, unknown>, headers: Record<string, string>, facilitator?: FacilitatorTiming): void;
}

/** How long the facilitator took to verify and to settle one payment, in milliseconds, from its call to its answer. */
export interface FacilitatorTiming {
  verifyMs: number;
  settleMs: number;
}
