import type { ClientExtension } from '@x402/core/client';
import type { PaymentPayload } from '@x402/core/types';

/** The x402 extension's key (`payment-identifier`): a client-chosen id that makes a paid request idempotent. */
const PAYMENT_IDENTIFIER = 'payment-identifier';

/**
 * The request header through which a call hands its payment identifier to the payer (`payer.wrap`). The payer puts
 * it in every payment it signs for the request and does not send the header itself. Without it, the payer makes one
 * per request; a call that may be repeated (a retry after a lost answer) sets the same one each time.
 */
export const PAYMENT_IDENTIFIER_HEADER = 'Payment-Identifier';

/** A fresh payment identifier: 16–128 letters, digits, `_` and `-`, as the extension requires. */
export function newPaymentIdentifier(): string {
  return `pay_${crypto.randomUUID().replaceAll('-', '')}`;
}

/** The identifier a request hands the payer (its header removed), or a new one. */
export function takePaymentIdentifier(request: Request): string {
  const id = request.headers.get(PAYMENT_IDENTIFIER_HEADER);
  request.headers.delete(PAYMENT_IDENTIFIER_HEADER);
  return id || newPaymentIdentifier();
}

/** Puts `id` in every payment the client signs for a challenge that declares the extension. */
export function paymentIdentifierExtension(id: string): ClientExtension {
  return {
    key: PAYMENT_IDENTIFIER,
    enrichPaymentPayload: async (payload: PaymentPayload) => {
      const declared = payload.extensions?.[PAYMENT_IDENTIFIER] as { info?: object } | undefined;
      if (!declared || typeof declared !== 'object') return payload;
      return { ...payload, extensions: { ...payload.extensions, [PAYMENT_IDENTIFIER]: { ...declared, info: { ...declared.info, id } } } };
    },
  };
}
