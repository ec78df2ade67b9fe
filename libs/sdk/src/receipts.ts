import { decodePaymentResponseHeader } from '@x402/core/http';

/** A settled payment, from the PAYMENT-RESPONSE header of a paid answer. */
export interface PaymentReceipt {
  network: string;
  transaction: string;
  payer?: string;
  /** Atomic units, when the facilitator reports it. */
  amount?: string;
}

export function receiptOf(response: Response): PaymentReceipt | undefined {
  const header = response.headers.get('PAYMENT-RESPONSE') ?? response.headers.get('X-PAYMENT-RESPONSE');
  if (!header) return undefined;
  const settled = decodePaymentResponseHeader(header);
  if (!settled.success) return undefined;
  return { network: settled.network, transaction: settled.transaction, ...(settled.payer ? { payer: settled.payer } : {}), ...(settled.amount ? { amount: settled.amount } : {}) };
}
