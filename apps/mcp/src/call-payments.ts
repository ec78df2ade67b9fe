import type { SpendRecord } from '@fileshift/agent-wallet';

/** The payments one tool call committed to, so the tool reports what it paid rather than the list price. */
export class CallPayments {
  private signed: SpendRecord[] = [];

  /** For the wallet's payer: told of each payment before it is signed. */
  readonly onPayment = (payment: SpendRecord): void => {
    this.signed.push(payment);
  };

  /**
   * Atomic units paid for the request just answered (and forgets them): the last payment signed for
   * it, when the answer carries a settlement receipt; earlier attempts of that request were not settled.
   */
  paidFor(receipt: object | undefined): bigint | null {
    const signed = this.signed;
    this.signed = [];
    return receipt && signed.length > 0 ? BigInt(signed.at(-1)!.amount) : null;
  }
}
