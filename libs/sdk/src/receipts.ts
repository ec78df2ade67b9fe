import { decodePaymentResponseHeader } from '@x402/core/http';
import { type RecordVerifier, type SignedReceipt, VerificationError } from './signed-records.js';

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
  /** The service's signed receipt of this settlement (x402 offer-receipt), verified; absent when the service sends none. */
  signed?: SignedReceipt;
}

/** @deprecated Renamed SettlementReceipt: the document's `PaymentReceipt` schema is another thing (a bought result's `payment`). */
export type PaymentReceipt = SettlementReceipt;

/**
 * The settlement of a paid answer, with its signed receipt verified against the service's key: a receipt that does
 * not verify, or that names another transaction or network than the settlement, is a VerificationError.
 */
export async function receiptOf(response: Response, verifier: RecordVerifier): Promise<SettlementReceipt | undefined> {
  const header = response.headers.get('PAYMENT-RESPONSE') ?? response.headers.get('X-PAYMENT-RESPONSE');
  if (!header) return undefined;
  const settled = decodePaymentResponseHeader(header);
  if (!settled.success) return undefined;
  const receipt: SettlementReceipt = { network: settled.network, transaction: settled.transaction, ...(settled.payer ? { payer: settled.payer } : {}), ...(settled.amount ? { amount: settled.amount } : {}) };
  const jws = signedReceiptJws(settled.extensions);
  if (!jws) return receipt;
  const signed = await verifier.verify<Omit<SignedReceipt, 'jws' | 'kid'>>(jws);
  if (signed.network !== settled.network || (signed.transaction !== undefined && signed.transaction !== settled.transaction)) {
    throw new VerificationError(`The signed receipt names another settlement (${signed.network} ${signed.transaction ?? ''}) than the answer's (${settled.network} ${settled.transaction}).`);
  }
  return { ...receipt, signed };
}

/** The compact JWS of an offer-receipt receipt, when the settlement carries one. */
function signedReceiptJws(extensions: Record<string, unknown> | undefined): string | undefined {
  const receipt = (extensions?.['offer-receipt'] as { info?: { receipt?: { format?: string; signature?: unknown } } } | undefined)?.info?.receipt;
  return receipt?.format === 'jws' && typeof receipt.signature === 'string' ? receipt.signature : undefined;
}
