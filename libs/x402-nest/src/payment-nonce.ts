import { createHash } from 'node:crypto';
import type { PaymentPayload } from '@x402/core/types';

/**
 * The value that makes a payment single-use. EVM EIP-3009 payloads carry a nonce (checked as
 * 0x + 64 hex by readPaymentHeader); other payloads (an SVM transaction, a Permit2 authorization)
 * are identified by a digest of the signed payload itself. The nonce is taken on EVM networks
 * only, so a payload of another family cannot name some EVM payment's nonce as its own.
 */
export function paymentNonce(payload: PaymentPayload): string {
  const nonce = isEvm(payload) ? eip3009Authorization(payload)?.nonce : undefined;
  if (typeof nonce === 'string' && nonce.length > 0) return nonce.toLowerCase();
  return `sha256:${createHash('sha256').update(canonicalJson(payload.payload)).digest('hex')}`;
}

/** The payer named in the payload, when the scheme names one before settlement. */
export function payerOf(payload: PaymentPayload): string | undefined {
  if (!isEvm(payload)) return undefined;
  const permit2 = payload.payload.permit2Authorization as { from?: unknown } | undefined;
  const from = eip3009Authorization(payload)?.from ?? permit2?.from;
  return typeof from === 'string' ? from : undefined;
}

function isEvm(payload: PaymentPayload): boolean {
  return payload.accepted.network.startsWith('eip155:');
}

function eip3009Authorization(payload: PaymentPayload): { nonce?: unknown; from?: unknown } | undefined {
  const authorization = payload.payload.authorization;
  return typeof authorization === 'object' && authorization !== null ? authorization : undefined;
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value).sort().map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
