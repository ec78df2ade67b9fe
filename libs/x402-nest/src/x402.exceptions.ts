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
