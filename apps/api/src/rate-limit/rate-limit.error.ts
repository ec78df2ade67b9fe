import { DomainError } from '../errors/domain-error.js';

export enum RateLimitErrorCode {
  TooManyRequests = 'too_many_requests',
  DailyQuotaExceeded = 'daily_quota_exceeded',
}

/** Over a rate or quota; `retryAfterSeconds` says when the window resets. */
export class RateLimitError extends DomainError<RateLimitErrorCode> {}
