/** Facts of a settled payment, as the gate hands them to the route. */
export interface PaymentReceipt {
  scheme: string;
  network: string;
  amountAtomic: string;
  asset: string;
  payTo: string;
  payer: string | null;
  txHash: string;
  settledAt: Date;
}

/**
 * The payment of one request to a `@Paid` route, handed to its handler by `@Payment()`. The handler (or
 * the service it calls) validates first, then collects, does its work, and settles — in that order, so an
 * invalid request is never challenged and a payment is settled only for work that was done.
 */
export interface RoutePayment {
  /**
   * Verifies and records the payment of `priceAtomic` this request carries (`reference`, e.g. a job id, is
   * stored with it). Throws the 402 challenge when there is no payment or it is refused, and a 503 when the
   * facilitator cannot be reached.
   */
  collect(priceAtomic: number | bigint | string, reference?: string): Promise<CollectedPayment>;
  /**
   * The identifier (x402 `payment-identifier`, scoped by payer) of the payment the request carries, read but not
   * yet verified; undefined without one. A route whose request the gate cannot compare (a multipart upload) dedupes
   * by it, so a repeated request finds the first one's answer before it collects anything.
   */
  readonly identifier: string | undefined;
}

/** A verified and recorded payment, not yet settled: settle it once the work is done, or release it. */
export interface CollectedPayment {
  readonly network: string;
  readonly amountAtomic: string;
  readonly payer: string | null;
  /**
   * The request repeats an earlier one with the same payment identifier whose payment settled: `settle` answers
   * that payment's receipt and charges nothing.
   */
  readonly repeated: boolean;
  /**
   * Settles, records the settlement (retried through a short database outage: the money moved) and sets
   * the `PAYMENT-RESPONSE` header. Throws 402 with the reason when it does not settle, 503 when the
   * facilitator cannot be reached; either way nothing was charged.
   */
  settle(): Promise<PaymentReceipt>;
  /** The work failed before settlement: nothing is charged and the record says why. */
  release(reason: string): Promise<void>;
}
