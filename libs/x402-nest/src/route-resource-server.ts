import { x402HTTPResourceServer } from '@x402/core/server';
import type { SettleResponse } from '@x402/core/types';
import { encodeHeader } from './payment-header.js';

/**
 * `@x402/core`'s HTTP server of one route, whose settlement header (PAYMENT-RESPONSE) is the text core makes, encoded
 * by Buffer: core's encoder copies the text byte by byte into a string for `btoa`, tens of µs a settlement on the
 * ~1 KB a signed receipt makes.
 */
export class RouteResourceServer extends x402HTTPResourceServer {
  override createSettlementHeaders(settlement: SettleResponse): Record<string, string> {
    // As core's encodePaymentResponseHeader: the extensions' own responses are not the buyer's.
    const { extensionResponses: _responses, ...buyerFacing } = settlement;
    return { 'PAYMENT-RESPONSE': encodeHeader(buyerFacing) };
  }
}
