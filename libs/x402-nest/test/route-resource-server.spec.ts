import { encodePaymentResponseHeader } from '@x402/core/http';
import { x402ResourceServer } from '@x402/core/server';
import type { SettleResponse } from '@x402/core/types';
import { describe, expect, it } from 'vitest';
import { RouteResourceServer } from '../src/route-resource-server.js';
import { FakeFacilitator } from './support/fake-facilitator.js';

describe('RouteResourceServer', () => {
  it('answers a settlement with the PAYMENT-RESPONSE core makes, to the byte, whatever the text', () => {
    const server = new RouteResourceServer(new x402ResourceServer(new FakeFacilitator('eip155:8453')), {});
    const settlement: SettleResponse = {
      success: true,
      transaction: `0x${'ab'.repeat(32)}`,
      network: 'eip155:8453',
      payer: '0x90F79bf6EB2c4f870365E785982E1f101E93b906',
      extensions: { 'offer-receipt': { info: { receipt: { note: 'reçu — 領収書 🧾' } } } },
      extensionResponses: { bazaar: { status: 'indexed' } },
    } as SettleResponse;
    expect(server.createSettlementHeaders(settlement)).toEqual({ 'PAYMENT-RESPONSE': encodePaymentResponseHeader(settlement) });
  });
});
