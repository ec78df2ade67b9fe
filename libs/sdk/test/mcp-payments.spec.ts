import { describe, expect, it } from 'vitest';
import { paymentRequiredOf } from '../src/index.js';

const challenge = {
  x402Version: 2,
  error: 'Payment required',
  resource: { url: 'https://files.example/api/x402/v1/detect-file-type', description: 'detect', mimeType: 'application/json' },
  accepts: [{ scheme: 'exact', network: 'eip155:8453', amount: '2000', asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', payTo: '0x209693Bc6afc0C5328bA36FaF03C514EF312287C', maxTimeoutSeconds: 300, extra: {} }],
};
const wrapped = { 'x402/error': { code: 402, message: 'Payment required', data: challenge } };

describe('paymentRequiredOf: the payment request of a tool result, where x402’s MCP transport puts it', () => {
  it('reads structuredContent itself, its x402/error wrapper, and the JSON text of content[0], in that order', () => {
    expect(paymentRequiredOf({ isError: true, structuredContent: challenge })).toEqual(challenge);
    expect(paymentRequiredOf({ isError: true, structuredContent: wrapped })).toEqual(challenge);
    expect(paymentRequiredOf({ isError: true, content: [{ type: 'text', text: JSON.stringify(wrapped) }] })).toEqual(challenge);
    expect(paymentRequiredOf({ isError: true, content: [{ type: 'text', text: JSON.stringify(challenge) }] })).toEqual(challenge);
  });

  it('finds none in a successful result, another error, or text that is not JSON', () => {
    expect(paymentRequiredOf({ structuredContent: challenge })).toBeUndefined();
    expect(paymentRequiredOf({ isError: true, structuredContent: { error: { code: 'not_found' } } })).toBeUndefined();
    expect(paymentRequiredOf({ isError: true, content: [{ type: 'text', text: 'The job was not found.' }] })).toBeUndefined();
    expect(paymentRequiredOf({ isError: true, content: [{ type: 'text', text: '{"x402Version":2}' }] })).toBeUndefined();
  });
});
