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
  ) {
    super(challenge, 402);
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
