import { createHash } from 'node:crypto';
import type { PaymentPayload } from '@x402/core/types';

/**
 * The value that makes a payment single-use. EVM `exact` payloads carry an EIP-3009 nonce; other
 * schemes (e.g. an SVM transaction) are identified by a digest of the signed payload itself.
 */
export function paymentNonce(payload: PaymentPayload): string {
  const authorization = (payload.payload as { authorization?: { nonce?: unknown } }).authorization;
  if (typeof authorization?.nonce === 'string' && authorization.nonce.length > 0) return authorization.nonce.toLowerCase();
  return `sha256:${createHash('sha256').update(canonicalJson(payload.payload)).digest('hex')}`;
}

/** The payer named in the payload, when the scheme names one before settlement. */
export function payerOf(payload: PaymentPayload): string | undefined {
  const from = (payload.payload as { authorization?: { from?: unknown } }).authorization?.from;
  return typeof from === 'string' ? from : undefined;
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value).sort().map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
