import { type OutboundError, OutboundErrorCode } from '@fileshift/outbound';

/** What one attempt got: the receiver's status, or the guard's error (refused, unreachable, timed out…). */
export type DeliveryAnswer = { status: number } | { error: OutboundError };

/**
 * `delivered`: the receiver took the event. `disabled`: it asked for no more (410). `retry`: it may take it later.
 * `failed`: it never will as things are; no more attempts.
 */
export interface DeliveryVerdict {
  verdict: 'delivered' | 'disabled' | 'retry' | 'failed';
  statusCode: number | null;
  /** Why it was not delivered, in words safe to show the caller (the guard's messages name no address). */
  error: string | null;
}

/** Statuses a receiver gives when it is busy or briefly broken. */
const RETRIED_STATUSES = new Set([408, 425, 429]);
/** The guard's errors of a receiver that may answer later: nothing about the URL itself. */
const RETRIED_ERRORS = new Set<OutboundErrorCode>([OutboundErrorCode.Timeout, OutboundErrorCode.IdleTimeout, OutboundErrorCode.Unreachable, OutboundErrorCode.BadResponse, OutboundErrorCode.Aborted]);

/**
 * Pure: what an attempt's answer means. 2xx delivers; 410 disables; 5xx, 408, 425, 429 and a receiver that cannot be
 * reached or does not answer in time are retried; any other status — a redirect too, which is never followed — and a
 * URL the guard refuses fail at once.
 */
export function deliveryVerdict(answer: DeliveryAnswer): DeliveryVerdict {
  if ('error' in answer) {
    const { code, message } = answer.error;
    if (code === OutboundErrorCode.TooManyRedirects) return { verdict: 'failed', statusCode: null, error: 'The receiver answered with a redirect; webhook deliveries do not follow redirects.' };
    return { verdict: RETRIED_ERRORS.has(code) ? 'retry' : 'failed', statusCode: answer.error.details.status ?? null, error: `${message} (${code})` };
  }
  const { status } = answer;
  if (status >= 200 && status < 300) return { verdict: 'delivered', statusCode: status, error: null };
  if (status === 410) return { verdict: 'disabled', statusCode: status, error: 'The receiver answered HTTP 410: it takes no more events of this job.' };
  const error = `The receiver answered HTTP ${status}.`;
  if (status >= 500 || RETRIED_STATUSES.has(status)) return { verdict: 'retry', statusCode: status, error };
  if (status >= 300 && status < 400) return { verdict: 'failed', statusCode: status, error: `${error} Webhook deliveries do not follow redirects.` };
  return { verdict: 'failed', statusCode: status, error };
}
