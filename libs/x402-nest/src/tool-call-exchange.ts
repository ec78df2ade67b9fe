import type { PaymentPayload } from '@x402/core/types';
import type { PaidExchange, PricedAdapter } from './paid-exchange.js';
import { encodeHeader, type ReadPayment } from './payment-header.js';
import { operationFingerprint } from './payment-identifier.js';
import { readPaymentMeta } from './payment-meta.js';

/** An MCP tool call paid as an HTTP operation of the same service: what the gate reads of it. */
export interface PaidToolCall {
  /** The call's `params._meta`, where its payment travels (`x402/payment`). */
  meta: Record<string, unknown> | undefined;
  /** The operation it is paid as: method, path (no query) and route pattern of the HTTP route. */
  method: string;
  path: string;
  routePattern: string;
  /** The service's absolute base URL, which the resource URL starts with (as the HTTP route's). */
  baseUrl: string;
  /** The JSON body the HTTP request would carry (null for none): the payment identifier's fingerprint reads it. */
  body: unknown;
  userAgent?: string;
  /** Hears the settlement's answer: what `_meta["x402/payment-response"]` carries. */
  settled(response: Record<string, unknown>): void;
}

/** A tool call as a paid exchange: the payment in `_meta`, the settlement's answer handed back as a value. */
export class ToolCallExchange implements PaidExchange {
  private read: ReadPayment | undefined;

  constructor(private readonly call: PaidToolCall) {}

  presented(): ReadPayment {
    return (this.read ??= readPaymentMeta(this.call.meta));
  }

  get method(): string {
    return this.call.method;
  }

  get path(): string {
    return this.call.path;
  }

  get routePattern(): string {
    return this.call.routePattern;
  }

  adapter(priceAtomic: string, payment?: PaymentPayload): PricedAdapter {
    return new ToolCallAdapter(this.call, priceAtomic, payment);
  }

  fingerprint(route: string, priceAtomic: string): string {
    return operationFingerprint(route, this.call.method, this.call.path, priceAtomic, this.call.body ?? null);
  }

  answerSettlement(response: Record<string, unknown>): void {
    this.call.settled(response);
  }
}

/** Core's view of a tool call: the HTTP request it stands for, with the payment as core reads it from a header. */
class ToolCallAdapter implements PricedAdapter {
  private paymentHeader: string | undefined;

  constructor(
    private readonly call: PaidToolCall,
    readonly priceAtomic: string,
    private readonly payment: PaymentPayload | undefined,
  ) {}

  getHeader(name: string): string | undefined {
    const key = name.toLowerCase();
    if (key === 'payment-signature' || key === 'x-payment') return this.payment && (this.paymentHeader ??= encodeHeader(this.payment));
    return undefined;
  }

  getMethod(): string {
    return this.call.method;
  }

  getPath(): string {
    return this.call.path;
  }

  getUrl(): string {
    return `${this.call.baseUrl}${this.call.path}`;
  }

  getAcceptHeader(): string {
    return 'application/json';
  }

  getUserAgent(): string {
    return this.call.userAgent ?? '';
  }

  getQueryParams(): Record<string, string | string[]> {
    return {};
  }

  getBody(): unknown {
    return this.call.body;
  }
}
