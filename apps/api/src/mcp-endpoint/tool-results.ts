import type { CallToolResult, ContentBlock } from '@modelcontextprotocol/sdk/types.js';
import { MCP_PAYMENT_RESPONSE_META, X402PaymentRequiredException } from '@fileshift/x402-nest';
import type { PaymentRequired } from '@x402/core/types';
import { x402PublicError } from '../x402-api/x402-errors.js';

/** What a settlement refusal's challenge says as its `error` (see X402PaymentGate): the facilitator's reason follows. */
const SETTLEMENT_FAILED = 'settlement_failed: ';

/** A tool's answer: `structured` is its structuredContent, repeated as JSON text for clients that read only text. */
export function toolResult(structured: Record<string, unknown>, extra: { text?: string; content?: ContentBlock[]; meta?: Record<string, unknown> } = {}): CallToolResult {
  return {
    content: [...(extra.text ? [{ type: 'text' as const, text: extra.text }] : []), { type: 'text', text: JSON.stringify(structured) }, ...(extra.content ?? [])],
    structuredContent: structured,
    ...(extra.meta ? { _meta: extra.meta } : {}),
  };
}

/**
 * Anything a tool threw, as an `isError` result: a payment challenge as the x402 MCP transport words it (the
 * PaymentRequired in structuredContent and in an `x402/error` text; a refused settlement adds its
 * `x402/payment-response`), every other error with the status, code and message the HTTP API answers it with.
 */
export function errorResult(error: unknown): CallToolResult {
  if (error instanceof X402PaymentRequiredException) return paymentRequiredResult(error.challenge);
  const { status, code, message, details, retryAfterSeconds } = x402PublicError(error);
  const structured = { error: { status, code, message, ...(details ? { details } : {}), ...(retryAfterSeconds !== undefined ? { retry_after_seconds: retryAfterSeconds } : {}) } };
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
}

function paymentRequiredResult(challenge: PaymentRequired): CallToolResult {
  const reason = challenge.error ?? 'Payment required';
  const settlementFailure = reason.startsWith(SETTLEMENT_FAILED)
    ? { [MCP_PAYMENT_RESPONSE_META]: { success: false, errorReason: reason.slice(SETTLEMENT_FAILED.length), transaction: '', network: challenge.accepts[0]?.network ?? '' } }
    : {};
  const structured = { ...challenge, ...settlementFailure } as unknown as Record<string, unknown>;
  return {
    isError: true,
    structuredContent: structured,
    content: [{ type: 'text', text: JSON.stringify({ 'x402/error': { code: 402, message: reason, data: challenge } }) }],
  };
}
