import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import { toCaip2Network } from './v1-networks.js';

export type ReadPayment =
  | { kind: 'none' }
  | { kind: 'malformed'; reason: string }
  | { kind: 'v2'; payload: PaymentPayload }
  | { kind: 'v1'; scheme: string; network: string; payload: Record<string, unknown> };

type Headers = Record<string, string | string[] | undefined>;

/**
 * Reads the payment from `PAYMENT-SIGNATURE` (x402 v2) or the legacy `X-PAYMENT` header, which
 * may carry a v2 payload or a v1 one. Never throws: a header that cannot be decoded is reported
 * with the reason, so the client hears what was wrong instead of a bare challenge.
 */
export function readPaymentHeader(headers: Headers): ReadPayment {
  const value = single(headers['payment-signature']) ?? single(headers['x-payment']);
  if (value === undefined || value.trim() === '') return { kind: 'none' };
  const source = headers['payment-signature'] !== undefined ? 'PAYMENT-SIGNATURE' : 'X-PAYMENT';

  let decoded: unknown;
  try {
    if (!/^[A-Za-z0-9+/=_-]+$/.test(value.trim())) throw new Error('not base64');
    decoded = JSON.parse(Buffer.from(value.trim(), 'base64').toString('utf8'));
  } catch {
    return { kind: 'malformed', reason: `invalid_payment_header: ${source} is not base64-encoded JSON` };
  }
  if (!isRecord(decoded)) return { kind: 'malformed', reason: `invalid_payment_header: ${source} is not a JSON object` };
  if (!isRecord(decoded.payload)) return { kind: 'malformed', reason: `invalid_payment_header: ${source} has no payload object` };

  if (decoded.x402Version === 2) {
    if (!isRecord(decoded.accepted)) return { kind: 'malformed', reason: `invalid_payment_header: ${source} v2 payload has no "accepted" requirements` };
    return { kind: 'v2', payload: decoded as unknown as PaymentPayload };
  }
  if (decoded.x402Version === 1) {
    if (typeof decoded.scheme !== 'string' || typeof decoded.network !== 'string') {
      return { kind: 'malformed', reason: `invalid_payment_header: ${source} v1 payload needs "scheme" and "network"` };
    }
    return { kind: 'v1', scheme: decoded.scheme, network: toCaip2Network(decoded.network), payload: decoded.payload };
  }
  return { kind: 'malformed', reason: `invalid_payment_header: unsupported x402Version ${JSON.stringify(decoded.x402Version)}` };
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

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function isRecord(value: unknown): value is Record<string, any> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
