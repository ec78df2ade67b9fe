import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import { checkPaymentHeader } from './payment-header.validation.js';

export type ReadPayment =
  | { kind: 'none' }
  | { kind: 'malformed'; reason: string }
  | { kind: 'v2'; payload: PaymentPayload }
  | { kind: 'v1'; scheme: string; network: string; payload: Record<string, unknown> };

type Headers = Record<string, string | string[] | undefined>;

/** Far above any real payment (an EIP-3009 payment is about 1 KB); bounds the work before decoding. */
export const MAX_PAYMENT_HEADER_CHARS = 16 * 1024;
/** Real payloads nest a few levels (extensions a few more); deeper JSON is only there to hurt. */
const MAX_JSON_DEPTH = 64;
const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;

/**
 * Reads the payment from `PAYMENT-SIGNATURE` (x402 v2) or the legacy `X-PAYMENT` header, which
 * may carry a v2 payload or a v1 one, and checks every field the facilitator will read before
 * the ledger or the facilitator sees it. Never throws: a bad header is reported with the header,
 * the field and the rule, so the client hears what was wrong instead of an outage.
 */
export function readPaymentHeader(headers: Headers): ReadPayment {
  const presented = presentedHeader(headers);
  if (!presented) return { kind: 'none' };
  const { source, value } = presented;
  const malformed = (problem: string): ReadPayment => ({ kind: 'malformed', reason: `invalid_payment_header: ${source} ${problem}` });

  if (value.length > MAX_PAYMENT_HEADER_CHARS) return malformed(`is longer than ${MAX_PAYMENT_HEADER_CHARS} characters`);
  const decoded = decodeBase64Json(value.trim());
  if (decoded === undefined) return malformed('is not base64-encoded JSON');
  if (nestingExceeds(decoded, MAX_JSON_DEPTH)) return malformed(`nests deeper than ${MAX_JSON_DEPTH} levels`);

  const checked = checkPaymentHeader(decoded);
  if (!checked.valid) return malformed(checked.problem);
  if (checked.version === 2) return { kind: 'v2', payload: checked.payload };
  return { kind: 'v1', scheme: checked.scheme, network: checked.network, payload: checked.payload };
}

/**
 * A v1 payload names only scheme and network; the v2 form carries the requirements it accepts.
 * The signed authorization is the same in both, so the payload is lifted into v2 against the
 * requirement this server offers for that scheme and network.
 */
export function upgradeV1Payment(
  v1: Extract<ReadPayment, { kind: 'v1' }>,
  accepts: readonly PaymentRequirements[],
): PaymentPayload | undefined {
  const accepted = accepts.find((requirement) => requirement.scheme === v1.scheme && requirement.network === v1.network);
  if (!accepted) return undefined;
  return { x402Version: 2, accepted, payload: v1.payload };
}

export function encodeHeader(value: unknown): string {
  return Buffer.from(JSON.stringify(value), 'utf8').toString('base64');
}

/** PAYMENT-SIGNATURE wins when both headers are sent; a blank header means no payment. */
function presentedHeader(headers: Headers): { source: 'PAYMENT-SIGNATURE' | 'X-PAYMENT'; value: string } | undefined {
  const signature = single(headers['payment-signature']);
  const entry = signature !== undefined ? { source: 'PAYMENT-SIGNATURE' as const, value: signature } : { source: 'X-PAYMENT' as const, value: single(headers['x-payment']) };
  if (entry.value === undefined || entry.value.trim() === '') return undefined;
  return { source: entry.source, value: entry.value };
}

/** Standard or url-safe base64 of UTF-8 JSON; undefined when it is not. */
function decodeBase64Json(value: string): unknown {
  if (!BASE64.test(value) || value.replace(/=+$/, '').length % 4 === 1) return undefined;
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(value, 'base64')));
  } catch {
    return undefined;
  }
}

/** Iterative, so a deeply nested value cannot overflow the stack here (or later, in code that recurses). */
export function nestingExceeds(value: unknown, maxDepth: number): boolean {
  const pending: Array<{ value: unknown; depth: number }> = [{ value, depth: 1 }];
  for (let next = pending.pop(); next; next = pending.pop()) {
    if (typeof next.value !== 'object' || next.value === null) continue;
    if (next.depth > maxDepth) return true;
    for (const child of Object.values(next.value)) pending.push({ value: child, depth: next.depth + 1 });
  }
  return false;
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
