import type { SpendRecord } from '@fileshift/agent-wallet';

/** What one paid request cost, and where it was settled. */
export interface CallPayment {
  /** Atomic units. */
  amount: bigint;
  /** CAIP-2: the settlement's, else the network the payment was signed for. */
  network: string;
  transaction: string | null;
}

/** The payments one tool call committed to, so the tool reports what it paid rather than the list price. */
export class CallPayments {
  private signed: SpendRecord[] = [];

  /** For the wallet's payer: told of each payment before it is signed. */
  readonly onPayment = (payment: SpendRecord): void => {
    this.signed.push(payment);
  };

  /**
   * What was paid for the request just answered (and forgets it): the last payment signed for it, when the answer
   * carries a settlement receipt; earlier attempts of that request were not settled.
   */
  paidFor(receipt: { network: string; transaction: string } | undefined): CallPayment | null {
    const signed = this.signed;
    this.signed = [];
    const last = signed.at(-1);
    return receipt && last ? { amount: BigInt(last.amount), network: receipt.network || last.network, transaction: receipt.transaction || null } : null;
  }
}
