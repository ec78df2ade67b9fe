import type { PaymentRequirements } from '@x402/core/types';
import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { FastifyExchange } from '../src/fastify-exchange.js';
import { readPaymentHeader } from '../src/payment-header.js';
import { readPaymentMeta } from '../src/payment-meta.js';
import { ToolCallExchange } from '../src/tool-call-exchange.js';

const requirement: PaymentRequirements = {
  scheme: 'exact',
  network: 'eip155:8453',
  asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
  amount: '2000',
  payTo: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  maxTimeoutSeconds: 300,
  extra: { name: 'USD Coin', version: '2' },
};
const authorization = {
  from: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
  to: requirement.payTo,
  value: '2000',
  validAfter: '1700000000',
  validBefore: '1700000600',
  nonce: `0x${'ab'.repeat(32)}`,
};
const payment = { x402Version: 2, accepted: requirement, payload: { signature: `0x${'1b'.repeat(65)}`, authorization } };
const PATH = '/api/x402/v1/detect-file-type';
const body = { filename: 'a.pdf', size_bytes: 9, header_first_200_bytes_base64: 'JVBERi0xLjcK' };

const toolCall = (meta: Record<string, unknown> | undefined, settled: (response: Record<string, unknown>) => void = () => undefined) =>
  new ToolCallExchange({ meta, method: 'POST', path: PATH, routePattern: PATH, baseUrl: 'https://fileshift.example', body, settled });

describe('readPaymentMeta (x402 MCP transport: the payment in _meta["x402/payment"])', () => {
  it('reads the PaymentPayload itself, checked as a payment header is', () => {
    expect(readPaymentMeta(undefined)).toEqual({ kind: 'none' });
    expect(readPaymentMeta({ 'x402/payment': null })).toEqual({ kind: 'none' });
    expect(readPaymentMeta({ 'x402/payment': payment })).toEqual({ kind: 'v2', payload: payment });
    // The same verdict as the header carrying the same payment.
    expect(readPaymentMeta({ 'x402/payment': payment })).toEqual(readPaymentHeader({ 'payment-signature': Buffer.from(JSON.stringify(payment)).toString('base64') }));
  });

  it('refuses a malformed, oversized or deeply nested payment with its rule, never throwing', () => {
    const refused = (value: unknown) => readPaymentMeta({ 'x402/payment': value });
    expect(refused('a string')).toEqual({ kind: 'malformed', reason: 'invalid_payment: _meta["x402/payment"] is not a JSON object' });
    expect(refused({ ...payment, accepted: { ...requirement, network: 'base' } })).toMatchObject({ kind: 'malformed', reason: expect.stringContaining('accepted.network') });
    expect(refused({ ...payment, padding: 'x'.repeat(20_000) })).toMatchObject({ kind: 'malformed', reason: expect.stringContaining('longer than') });
    let deep: unknown = {};
    for (let i = 0; i < 100; i++) deep = { deep };
    expect(refused({ ...payment, deep })).toMatchObject({ kind: 'malformed', reason: expect.stringContaining('nests deeper') });
  });
});

describe('ToolCallExchange', () => {
  it('fingerprints a call as the HTTP request it stands for: one request, one payment identifier, on either transport', () => {
    const http = { method: 'POST', url: PATH, body, headers: {} } as unknown as FastifyRequest;
    const fromHttp = new FastifyExchange(http, {} as never).fingerprint('detectFileType', '2000');
    expect(toolCall(undefined).fingerprint('detectFileType', '2000')).toBe(fromHttp);
    expect(toolCall(undefined).fingerprint('detectFileType', '2001')).not.toBe(fromHttp);
  });

  it('shows core the operation: its URL under the base, the payment as the header core reads, and hands the settlement back as a value', () => {
    let settled: Record<string, unknown> | undefined;
    const exchange = toolCall({ 'x402/payment': payment }, (response) => void (settled = response));
    const adapter = exchange.adapter('2000', payment as never);
    expect(adapter.getUrl()).toBe(`https://fileshift.example${PATH}`);
    expect([adapter.getMethod(), adapter.getPath(), adapter.priceAtomic]).toEqual(['POST', PATH, '2000']);
    expect(JSON.parse(Buffer.from(adapter.getHeader('PAYMENT-SIGNATURE')!, 'base64').toString())).toEqual(payment);
    expect(exchange.adapter('2000').getHeader('payment-signature')).toBeUndefined();
    exchange.answerSettlement({ success: true, transaction: '0x01' });
    expect(settled).toEqual({ success: true, transaction: '0x01' });
  });
});
