import { Injectable } from '@nestjs/common';
import { MCP_PAYMENT_RESPONSE_META, type PaidRoute, type RoutePayment, X402PaymentGate } from '@fileshift/x402-nest';
import type { ToolCall } from './mcp-tool.js';

/** The HTTP operation a paid tool call is paid as: the same challenge, ledger records and identifiers as its route's. */
export interface PaidOperation {
  route: PaidRoute;
  method: 'GET' | 'POST';
  /** The path the HTTP request would have. */
  path: string;
  /** Its route pattern (as Fastify names the HTTP route). */
  routePattern: string;
  /** The JSON body the HTTP request would carry; null for none (a GET, or an upload). */
  body: unknown;
}

/** A tool call's payment, and once settled the answer its result's `_meta` carries. */
export interface ToolPayment {
  payment: RoutePayment;
  /** `{"x402/payment-response": …}` once the payment settled (or an earlier one answered); undefined before. */
  meta(): Record<string, unknown> | undefined;
}

/** Tool calls paid through the API's payment gate: one payment core, two transports. */
@Injectable()
export class ToolPayments {
  constructor(private readonly gate: X402PaymentGate) {}

  of(call: ToolCall, operation: PaidOperation): ToolPayment {
    let settled: Record<string, unknown> | undefined;
    const payment = this.gate.paymentForMcp(
      {
        meta: call.meta,
        method: operation.method,
        path: operation.path,
        routePattern: operation.routePattern,
        baseUrl: call.baseUrl,
        body: operation.body,
        userAgent: call.userAgent,
        settled: (response) => void (settled = response),
      },
      operation.route,
    );
    return { payment, meta: () => (settled ? { [MCP_PAYMENT_RESPONSE_META]: settled } : undefined) };
  }
}
