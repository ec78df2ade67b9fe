import { HttpException } from '@nestjs/common';
import type { PaymentRequired } from '@x402/core/types';

/**
 * HTTP 402 with the payment challenge both in the base64 `PAYMENT-REQUIRED` header and as the JSON
 * body (`{x402Version, error?, resource, accepts}`), as clients of either generation expect.
 */
export class X402PaymentRequiredException extends HttpException {
  constructor(
    readonly challenge: PaymentRequired,
    readonly headers: Record<string, string>,
    /** The challenge already serialised as JSON, when it was kept so. */
    readonly body?: string,
  ) {
    super(challenge, 402);
  }

  /**
   * The same, without a stack trace: a challenge is the expected answer to every unpaid request, not a fault
   * anyone debugs, and capturing the stack of each would be a large share of the unpaid path's work.
   */
  static withoutStack(challenge: PaymentRequired, headers: Record<string, string>, body?: string): X402PaymentRequiredException {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      return new X402PaymentRequiredException(challenge, headers, body);
    } finally {
      Error.stackTraceLimit = limit;
    }
  }
}

/** The facilitator or the chain could not be reached: nothing was charged, retry later (503). */
export class X402UnavailableException extends HttpException {
  constructor(
    message: string,
    readonly retryAfterSeconds = 5,
  ) {
    super(message, 503);
  }
}

/**
 * 409: the payment's identifier belongs to another request (`reused`), or to a payment of this request that is
 * still being settled (`in_progress`: retry shortly). Nothing was charged.
 */
export class X402PaymentIdentifierConflictException extends HttpException {
  constructor(readonly reason: 'reused' | 'in_progress') {
    super(
      reason === 'reused'
        ? 'This payment identifier was used for a different request; nothing was charged. Use a new identifier for a new request.'
        : 'A payment with this identifier is being settled; nothing was charged. Retry shortly for its answer.',
      409,
    );
  }
}
