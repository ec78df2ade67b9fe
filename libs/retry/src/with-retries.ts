import { setTimeout as sleep } from 'node:timers/promises';

export interface RetryOptions {
  attempts: number;
  firstDelayMs: number;
  maxDelayMs: number;
  /** Called before each wait with the failure that caused it. */
  onRetry?: (error: unknown, attempt: number) => void;
}

/**
 * Runs `work` until it succeeds or `attempts` ran out, waiting longer each time. For writes that must
 * outlive a short outage because something irreversible already happened (a payment settled on chain).
 */
export async function withRetries<T>(work: () => Promise<T>, options: RetryOptions): Promise<T> {
  let delay = options.firstDelayMs;
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= options.attempts) throw error;
      options.onRetry?.(error, attempt);
      await sleep(delay);
      delay = Math.min(delay * 2, options.maxDelayMs);
    }
  }
}

/** For writes that must follow a settlement (the money moved): about 15 s in all, longer than a database restart. */
export const AFTER_SETTLEMENT_RETRIES: Omit<RetryOptions, 'onRetry'> = { attempts: 6, firstDelayMs: 500, maxDelayMs: 4000 };
