import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { KeyApiLimits } from '../config/key-api-limits.js';

/** Who is calling the key API: a key (by id) or, without the header, a client IP. */
export interface KeyApiCaller {
  apiKeyId: string | null;
  limits: KeyApiLimits;
}

const CALLERS = new WeakMap<FastifyRequest, KeyApiCaller>();

export function attachKeyApiCaller(request: FastifyRequest, caller: KeyApiCaller): void {
  CALLERS.set(request, caller);
}

/** The caller the access guard identified; a handler parameter of every key API route. */
export const Caller = createParamDecorator((_data: unknown, context: ExecutionContext): KeyApiCaller => {
  const caller = CALLERS.get(context.switchToHttp().getRequest<FastifyRequest>());
  if (!caller) throw new Error('KeyApiAccessGuard did not run for this route');
  return caller;
});
