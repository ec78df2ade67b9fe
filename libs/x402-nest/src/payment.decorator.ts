import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { RoutePayment } from './route-payment.js';

const ROUTE_PAYMENT = Symbol('x402 route payment');

type WithPayment = FastifyRequest & { [ROUTE_PAYMENT]?: RoutePayment };

export function attachRoutePayment(request: FastifyRequest, payment: RoutePayment): void {
  (request as WithPayment)[ROUTE_PAYMENT] = payment;
}

/** The request's {@link RoutePayment}, in a handler of a `@Paid` route. */
export const Payment = createParamDecorator((_data: unknown, context: ExecutionContext): RoutePayment => {
  const payment = context.switchToHttp().getRequest<WithPayment>()[ROUTE_PAYMENT];
  if (!payment) throw new Error('@Payment() is only available on a @Paid route');
  return payment;
});
