import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import { ModuleRef, Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { from, mergeMap, type Observable } from 'rxjs';
import { FreeAnswer, PaidWork } from './paid-work.js';
import { PAID_ROUTE_METADATA } from './paid-route.metadata.js';
import type { PaidOptions } from './paid.decorator.js';
import { X402PaymentGate } from './x402-payment.gate.js';

/** Runs the x402 flow around the `PaidWork` a `@Paid` handler returns. */
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
    const reply = http.getResponse<FastifyReply>();
    const gate = this.moduleRef.get<X402PaymentGate>(options.gate ?? X402PaymentGate, { strict: false });
    return next.handle().pipe(
      mergeMap((value: unknown) => {
        if (value instanceof FreeAnswer) return from([value.value]);
        if (!(value instanceof PaidWork)) {
          throw new Error(`@Paid route ${options.name} must return chargeFor(price, work)`);
        }
        return from(gate.charge(request, reply, options, value));
      }),
    );
  }
}
