import type { Clock } from './clock.js';
import { NetworkError, RateLimitedError } from './errors.js';

/** Attempts per call: one, and two more after a lost connection or a 429. */
const ATTEMPTS = 3;

/**
 * Runs `call` again when it got no answer or was rate limited (waiting Retry-After). Only for calls
 * that are safe to repeat: a conversion start with its idempotency key, status reads, a result
 * purchase (free once bought) and its download.
 */
export async function retrying<T>(call: () => Promise<T>, { sleep, signal }: { sleep: Clock['sleep']; signal?: AbortSignal }): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      const waitSeconds = error instanceof RateLimitedError ? error.retryAfter : error instanceof NetworkError ? attempt : undefined;
      if (waitSeconds === undefined || attempt >= ATTEMPTS) throw error;
      await sleep(waitSeconds * 1000, signal);
    }
  }
}
