import { type ArgumentsHost, Catch, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { X402PaymentRequiredException } from './x402.exceptions.js';

/**
 * Answers a payment challenge as x402 clients expect it: 402, the base64 `PAYMENT-REQUIRED` header and
 * the same challenge as the JSON body. Set on every `@Paid` route, so an application needs no filter of
 * its own for it; other errors keep going to the application's filters.
 */
@Catch(X402PaymentRequiredException)
export class X402ChallengeFilter implements ExceptionFilter<X402PaymentRequiredException> {
  catch(exception: X402PaymentRequiredException, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    void reply.headers(exception.headers).status(402).type('application/json; charset=utf-8').send(exception.body ?? JSON.stringify(exception.challenge));
  }
}
