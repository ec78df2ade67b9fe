import type { PaymentPayload } from '@x402/core/types';
import type { z } from 'zod';
import { schemePayloadSchema } from './exact-payload.schemas.js';
import { paymentPayloadV1Schema, paymentPayloadV2Schema } from './payment-envelope.schemas.js';
import { CAIP2_NETWORK } from './payment-field.schemas.js';
import { toCaip2Network } from './v1-networks.js';

export type PaymentHeaderCheck =
  | { valid: true; version: 2; payload: PaymentPayload }
  | { valid: true; version: 1; scheme: string; network: string; payload: Record<string, unknown> }
  /** `problem` names the field and the rule, e.g. `accepted.network is missing`; it never echoes a value. */
  | { valid: false; problem: string };

/**
 * Checks a decoded payment header field by field: the v1 or v2 envelope, then the scheme payload
 * for its network family. Pure. What it accepts is the decoded value itself, untouched, so the
 * facilitator verifies exactly what the client signed and sent.
 */
export function checkPaymentHeader(decoded: unknown): PaymentHeaderCheck {
  if (!isRecord(decoded)) return { valid: false, problem: 'is not a JSON object' };
  switch (decoded.x402Version) {
    case 2:
      return checkV2(decoded);
    case 1:
      return checkV1(decoded);
    case undefined:
      return { valid: false, problem: 'x402Version is missing' };
    default:
      return { valid: false, problem: 'x402Version must be 1 or 2' };
  }
}

function checkV2(decoded: Record<string, unknown>): PaymentHeaderCheck {
  const envelope = paymentPayloadV2Schema.safeParse(decoded);
  if (!envelope.success) return { valid: false, problem: describeIssue(envelope.error, decoded) };
  const payload = decoded.payload as Record<string, unknown>;
  const { network, scheme } = envelope.data.accepted;
  const schemePayload = schemePayloadSchema(network, scheme, payload).safeParse(payload);
  if (!schemePayload.success) return { valid: false, problem: describeIssue(schemePayload.error, payload, ['payload']) };
  return { valid: true, version: 2, payload: decoded as unknown as PaymentPayload };
}

function checkV1(decoded: Record<string, unknown>): PaymentHeaderCheck {
  const envelope = paymentPayloadV1Schema.safeParse(decoded);
  if (!envelope.success) return { valid: false, problem: describeIssue(envelope.error, decoded) };
  const network = toCaip2Network(envelope.data.network);
  if (!CAIP2_NETWORK.test(network)) {
    return { valid: false, problem: 'network must be a v1 network name such as base or solana, or a CAIP-2 network id' };
  }
  const { scheme } = envelope.data;
  const payload = decoded.payload as Record<string, unknown>;
  const schemePayload = schemePayloadSchema(network, scheme, payload).safeParse(payload);
  if (!schemePayload.success) return { valid: false, problem: describeIssue(schemePayload.error, payload, ['payload']) };
  return { valid: true, version: 1, scheme, network, payload };
}

/** The first issue as `path rule`, or `path is missing` when the field is absent. */
function describeIssue(error: z.ZodError, root: unknown, prefix: readonly PropertyKey[] = []): string {
  const issue = error.issues[0];
  if (!issue) return 'is invalid';
  const path = formatPath([...prefix, ...issue.path]);
  const rule = valueAt(root, issue.path) === undefined ? 'is missing' : issue.message;
  return path ? `${path} ${rule}` : rule;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let value = root;
  for (const key of path) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

function formatPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((text, key) => (typeof key === 'number' ? `${text}[${key}]` : text ? `${text}.${String(key)}` : String(key)), '');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
