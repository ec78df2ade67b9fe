import type { PaymentRequired, SettleResponse } from '@x402/core/types';
import type { Payer } from './payer.js';
import { newPaymentIdentifier } from './payment-identifier.js';

/** Where a tool call carries its payment, and its result the settlement (x402's MCP transport). */
export const MCP_PAYMENT_META = 'x402/payment';
export const MCP_PAYMENT_RESPONSE_META = 'x402/payment-response';

/** A tool call's result, as any MCP client returns it (the official SDK's `CallToolResult`). */
export interface ToolResult {
  isError?: boolean;
  content?: Array<{ type: string; text?: string; [field: string]: unknown }>;
  structuredContent?: Record<string, unknown>;
  _meta?: Record<string, unknown>;
  [field: string]: unknown;
}

/** The one method of an MCP client the payer uses: the official SDK's `Client.callTool` fits. */
export interface ToolCaller {
  callTool(params: { name: string; arguments?: Record<string, unknown>; _meta?: Record<string, unknown> }): Promise<unknown>;
}

export interface PaidToolCall {
  name: string;
  arguments?: Record<string, unknown>;
  /** The payment's x402 payment-identifier: a call repeated with it is answered from the first payment. Generated when absent. */
  paymentId?: string;
}

export type PaidToolResult = ToolResult & {
  /** The settlement the server answered with (`_meta["x402/payment-response"]`), when this call paid. */
  settlement?: SettleResponse;
  /** The payment identifier the call carried (pass it again to retry without paying twice). */
  paymentId: string;
};

/**
 * Calls a tool of a hosted MCP server that is paid over x402's MCP transport: called without payment, a paid tool
 * answers `isError` with the payment's requirements; the payer signs one within its limits and approval (a refusal is a
 * SpendLimitError, nothing signed) and the call is made again with it in `_meta["x402/payment"]`. A free tool, or a
 * paid one whose result is not a payment request, is answered as it is.
 */
export async function callPaidTool(client: ToolCaller, payer: Payer, call: PaidToolCall): Promise<PaidToolResult> {
  const paymentId = call.paymentId ?? newPaymentIdentifier();
  const first = (await client.callTool({ name: call.name, arguments: call.arguments })) as ToolResult;
  const challenge = paymentRequiredOf(first);
  if (!challenge) return { ...first, paymentId };
  const payment = await payer.sign(challenge, paymentId);
  const paid = (await client.callTool({ name: call.name, arguments: call.arguments, _meta: { [MCP_PAYMENT_META]: payment } })) as ToolResult;
  const settlement = paid._meta?.[MCP_PAYMENT_RESPONSE_META] as SettleResponse | undefined;
  return { ...paid, paymentId, ...(settlement ? { settlement } : {}) };
}

/**
 * The payment request a tool result carries, looked for as the transport says, in order: `structuredContent` itself,
 * its `x402/error` wrapper, then the JSON text of `content[0]`.
 */
export function paymentRequiredOf(result: ToolResult): PaymentRequired | undefined {
  if (!result.isError) return undefined;
  const structured = result.structuredContent;
  if (isPaymentRequired(structured)) return structured;
  const wrapped = (structured?.['x402/error'] as { data?: unknown } | undefined)?.data;
  if (isPaymentRequired(wrapped)) return wrapped;
  const text = result.content?.[0]?.type === 'text' ? result.content[0].text : undefined;
  if (!text) return undefined;
  try {
    const parsed = JSON.parse(text) as Record<string, unknown>;
    const inner = (parsed['x402/error'] as { data?: unknown } | undefined)?.data ?? parsed;
    return isPaymentRequired(inner) ? inner : undefined;
  } catch {
    return undefined;
  }
}

function isPaymentRequired(value: unknown): value is PaymentRequired {
  return typeof value === 'object' && value !== null && typeof (value as PaymentRequired).x402Version === 'number' && Array.isArray((value as PaymentRequired).accepts);
}
