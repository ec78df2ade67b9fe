import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import { ModuleRef, Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Observable } from 'rxjs';
import { PAID_ROUTE_METADATA } from './paid-route.metadata.js';
import type { PaidOptions } from './paid.decorator.js';
import { attachRoutePayment } from './payment.decorator.js';
import { X402PaymentGate } from './x402-payment.gate.js';

/** Hands a `@Paid` route's handler the payment of its request (read with `@Payment()`), bound to the route's gate. */
@Injectable()
export class X402Interceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    private readonly moduleRef: ModuleRef,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const options = this.reflector.get<PaidOptions>(PAID_ROUTE_METADATA, context.getHandler());
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const gate = this.moduleRef.get<X402PaymentGate>(options.gate ?? X402PaymentGate, { strict: false });
    attachRoutePayment(request, gate.paymentFor(request, http.getResponse<FastifyReply>(), options));
    return next.handle();
  }
}
