import { MAX_PAYMENT_HEADER_CHARS, nestingExceeds, type ReadPayment } from './payment-header.js';
import { checkPaymentHeader } from './payment-header.validation.js';

/** Where an MCP tool call carries its payment (x402 MCP transport): the PaymentPayload itself, as JSON. */
export const MCP_PAYMENT_META = 'x402/payment';
/** Where its answer carries the settlement (the SettleResponse, with the signed receipt). */
export const MCP_PAYMENT_RESPONSE_META = 'x402/payment-response';

const MAX_JSON_DEPTH = 64;

/**
 * Reads the payment of a tool call from `_meta["x402/payment"]` and checks it by the rules a payment header is
 * checked by (size, depth, every field the facilitator reads). Never throws: a bad payment is reported with its rule.
 */
export function readPaymentMeta(meta: Record<string, unknown> | undefined): ReadPayment {
  const value = meta?.[MCP_PAYMENT_META];
  if (value === undefined || value === null) return { kind: 'none' };
  const malformed = (problem: string): ReadPayment => ({ kind: 'malformed', reason: `invalid_payment: _meta["${MCP_PAYMENT_META}"] ${problem}` });
  // Nesting first: a deep value would cost the serialisation below its stack.
  if (nestingExceeds(value, MAX_JSON_DEPTH)) return malformed(`nests deeper than ${MAX_JSON_DEPTH} levels`);
  // The same bound as the header's, on its JSON rather than its base64 (which is a third longer).
  if (JSON.stringify(value).length > MAX_PAYMENT_HEADER_CHARS) return malformed(`is longer than ${MAX_PAYMENT_HEADER_CHARS} characters of JSON`);
  const checked = checkPaymentHeader(value);
  if (!checked.valid) return malformed(checked.problem);
  if (checked.version === 2) return { kind: 'v2', payload: checked.payload };
  return { kind: 'v1', scheme: checked.scheme, network: checked.network, payload: checked.payload };
}
