import type { HTTPAdapter } from '@x402/core/server';
import type { PaymentPayload } from '@x402/core/types';
import type { FastifyRequest } from 'fastify';
import { encodeHeader } from './payment-header.js';

/**
 * `@x402/core`'s view of a Fastify request. The payment header it reports is the payment the gate read
 * and checked (v1 `X-PAYMENT` lifted to v2), encoded only when core reads it; the price of this request
 * travels with it so the route's dynamic price needs no global state.
 */
export class FastifyHttpAdapter implements HTTPAdapter {
  private paymentHeader: string | undefined;

  constructor(
    private readonly request: FastifyRequest,
    readonly priceAtomic: string,
    private readonly payment: PaymentPayload | undefined,
    private readonly publicBaseUrl?: string,
  ) {}

  getHeader(name: string): string | undefined {
    const key = name.toLowerCase();
    if (key === 'payment-signature' || key === 'x-payment') return this.payment && (this.paymentHeader ??= encodeHeader(this.payment));
    const value = this.request.headers[key];
    return Array.isArray(value) ? value[0] : value;
  }

  getMethod(): string {
    return this.request.method;
  }

  getPath(): string {
    return this.request.url.split('?')[0] ?? '/';
  }

  getUrl(): string {
    const base = this.publicBaseUrl ?? `${this.request.protocol}://${this.request.host}`;
    return `${base}${this.getPath()}`;
  }

  /** An API: challenges are always JSON, never the browser paywall page. */
  getAcceptHeader(): string {
    return 'application/json';
  }

  getUserAgent(): string {
    return this.request.headers['user-agent'] ?? '';
  }

  getQueryParams(): Record<string, string | string[]> {
    return (this.request.query ?? {}) as Record<string, string | string[]>;
  }

  getBody(): unknown {
    return this.request.body;
  }
}
