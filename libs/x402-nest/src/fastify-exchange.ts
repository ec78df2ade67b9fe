import type { PaymentPayload } from '@x402/core/types';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { FastifyHttpAdapter } from './fastify-http.adapter.js';
import type { FacilitatorTiming, PaidExchange } from './paid-exchange.js';
import { requestFingerprint } from './payment-identifier.js';
import { encodeHeader, type ReadPayment, readPaymentHeader } from './payment-header.js';

/** An HTTP request to a `@Paid` route: the payment in its headers, the settlement's answer in the reply's. */
export class FastifyExchange implements PaidExchange {
  /** Read and checked once, whether the route asks for the identifier first or only collects. */
  private read: ReadPayment | undefined;

  constructor(
    private readonly request: FastifyRequest,
    private readonly reply: FastifyReply,
    private readonly publicBaseUrl?: string,
  ) {}

  presented(): ReadPayment {
    return (this.read ??= readPaymentHeader(this.request.headers));
  }

  get method(): string {
    return this.request.method;
  }

  get path(): string {
    return this.request.url.split('?')[0] ?? '/';
  }

  get routePattern(): string {
    return this.request.routeOptions?.url ?? (this.request.url.split('?')[0] || '/');
  }

  adapter(priceAtomic: string, payment?: PaymentPayload): FastifyHttpAdapter {
    return new FastifyHttpAdapter(this.request, priceAtomic, payment, this.publicBaseUrl);
  }

  fingerprint(route: string, priceAtomic: string): string {
    return requestFingerprint(this.request, route, priceAtomic);
  }

  answerSettlement(response: Record<string, unknown>, headers: Record<string, string>, facilitator?: FacilitatorTiming): void {
    for (const [name, value] of Object.entries(headers)) if (name !== 'PAYMENT-RESPONSE') this.reply.header(name, value);
    // Encoded by Buffer: core's byte-by-byte btoa costs tens of µs on a header that a signed receipt makes about 1 KB.
    this.reply.header('PAYMENT-RESPONSE', encodeHeader(response));
    // Which part of the wait was the facilitator's (the chain's): a payer's tools show it, and the payment bench reads it.
    if (facilitator) this.reply.header('Server-Timing', `x402-verify;dur=${facilitator.verifyMs.toFixed(2)}, x402-settle;dur=${facilitator.settleMs.toFixed(2)}`);
  }
}
