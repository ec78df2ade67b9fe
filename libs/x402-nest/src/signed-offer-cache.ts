import type { OfferInput, OfferReceiptIssuer, SignedOffer } from '@x402/extensions/offer-receipt';

interface KeptOffer {
  readonly offer: Promise<SignedOffer>;
  readonly signedAt: number;
}

/**
 * An offer-receipt issuer that signs each offer once and hands the same signature out while it is younger than
 * `maxAgeMs`: `@x402/core` rebuilds a route's challenge, offers included, on every paid request too (to match the
 * payment against it), and an offer depends only on what it says — resource URL, accepted payment, amount, validity —
 * never on the request. Offers are keyed by all of that, so a changed challenge (price, payTo, network, host…) is a
 * new signature. Entries are bounded: the resource URL follows the request's Host header when no public base URL is
 * set. Receipts name a settlement and are always signed afresh.
 */
export class SignedOfferCache implements OfferReceiptIssuer {
  private readonly offers = new Map<string, KeptOffer>();

  constructor(
    private readonly issuer: OfferReceiptIssuer,
    private readonly maxAgeMs: number,
    private readonly capacity = 256,
    private readonly now: () => number = () => Date.now(),
  ) {}

  get kid(): string {
    return this.issuer.kid;
  }

  get format() {
    return this.issuer.format;
  }

  issueOffer(resourceUrl: string, input: OfferInput): Promise<SignedOffer> {
    const key = offerKey(resourceUrl, input);
    const kept = this.offers.get(key);
    if (kept && this.now() - kept.signedAt < this.maxAgeMs) return kept.offer;
    this.offers.delete(key);
    if (this.offers.size >= this.capacity) this.offers.delete(this.offers.keys().next().value!);
    const offer = this.issuer.issueOffer(resourceUrl, input);
    this.offers.set(key, { offer, signedAt: this.now() });
    // A failed signature is not kept: the next challenge asks again.
    offer.catch(() => {
      if (this.offers.get(key)?.offer === offer) this.offers.delete(key);
    });
    return offer;
  }

  issueReceipt(resourceUrl: string, payer: string, network: string, transaction?: string) {
    return this.issuer.issueReceipt(resourceUrl, payer, network, transaction);
  }
}

/** Pure: everything an offer is made of — every field of its input, whatever fields it gains, in a fixed order. */
function offerKey(resourceUrl: string, input: OfferInput): string {
  return JSON.stringify([resourceUrl, Object.entries(input).sort(([a], [b]) => (a < b ? -1 : 1))]);
}
