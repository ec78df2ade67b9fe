import { decodePaymentResponseHeader } from '@x402/core/http';

/**
 * A settlement, from the PAYMENT-RESPONSE header of a paid answer. Not the document's
 * `PaymentReceipt` schema: that is the service's own record of a purchase (`payment` of a bought result).
 */
export interface SettlementReceipt {
  network: string;
  transaction: string;
  payer?: string;
  /** Atomic units, when the facilitator reports it. */
  amount?: string;
}

/** @deprecated Renamed SettlementReceipt: the document's `PaymentReceipt` schema is another thing (a bought result's `payment`). */
export type PaymentReceipt = SettlementReceipt;

export function receiptOf(response: Response): SettlementReceipt | undefined {
  const header = response.headers.get('PAYMENT-RESPONSE') ?? response.headers.get('X-PAYMENT-RESPONSE');
  if (!header) return undefined;
  const settled = decodePaymentResponseHeader(header);
  if (!settled.success) return undefined;
  return { network: settled.network, transaction: settled.transaction, ...(settled.payer ? { payer: settled.payer } : {}), ...(settled.amount ? { amount: settled.amount } : {}) };
}
