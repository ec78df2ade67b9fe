import { createParamDecorator, type ExecutionContext, Injectable, type PipeTransform } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PAID_ROUTE_METADATA } from './paid-route.metadata.js';
import type { PaidOptions } from './paid.decorator.js';
import type { RoutePayment } from './route-payment.js';
import { X402PaymentGate } from './x402-payment.gate.js';

/** What a `@Paid` handler's payment is made of: the exchange and the route's options. */
interface PaymentSource {
  request: FastifyRequest;
  reply: FastifyReply;
  options: PaidOptions;
}

const paymentSource = createParamDecorator((_data: unknown, context: ExecutionContext): PaymentSource => {
  const options = Reflect.getMetadata(PAID_ROUTE_METADATA, context.getHandler()) as PaidOptions | undefined;
  if (!options) throw new Error('@Payment() is only available on a @Paid route');
  const http = context.switchToHttp();
  return { request: http.getRequest<FastifyRequest>(), reply: http.getResponse<FastifyReply>(), options };
});

/**
 * Binds the request's payment to its route's gate. A pipe rather than an interceptor: it runs only where a
 * handler asks for the payment, and without the observable chain Nest builds around every intercepted call.
 */
@Injectable()
export class RoutePaymentPipe implements PipeTransform<PaymentSource, RoutePayment> {
  private readonly gates = new Map<PaidOptions['gate'], X402PaymentGate>();

  constructor(private readonly moduleRef: ModuleRef) {}

  transform({ request, reply, options }: PaymentSource): RoutePayment {
    return this.gateOf(options.gate).paymentFor(request, reply, options);
  }

  /** The gate behind a token, looked up once: providers do not change once the application runs. */
  private gateOf(token: PaidOptions['gate']): X402PaymentGate {
    let gate = this.gates.get(token);
    if (!gate) {
      gate = this.moduleRef.get<X402PaymentGate>(token ?? X402PaymentGate, { strict: false });
      this.gates.set(token, gate);
    }
    return gate;
  }
}

/** The request's {@link RoutePayment}, in a handler of a `@Paid` route. */
export const Payment = (): ParameterDecorator => paymentSource(undefined, RoutePaymentPipe);
