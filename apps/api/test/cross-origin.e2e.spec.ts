import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/test-app.js';

const PAGE = 'https://app.example';

describe('cross-origin calls from web pages (real HTTP)', () => {
  let open: TestApp;
  let narrow: TestApp;
  beforeAll(async () => {
    [open, narrow] = await Promise.all([startTestApp(), startTestApp({ CORS_ALLOWED_ORIGINS: PAGE })]);
  });
  afterAll(async () => {
    await Promise.all([open?.close(), narrow?.close()]);
  });

  it('answers a preflight for a paid call with the payment headers allowed, before any route or limit', async () => {
    const response = await fetch(`${open.baseUrl}/api/x402/v1/detect-file-type`, {
      method: 'OPTIONS',
      headers: { Origin: PAGE, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type,payment-signature,access-control-expose-headers' },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-methods')).toContain('POST');
    // The official x402 client sends Access-Control-Expose-Headers as a request header with its payment.
    for (const header of ['payment-signature', 'access-control-expose-headers']) expect(response.headers.get('access-control-allow-headers')?.toLowerCase()).toContain(header);
  });

  it('lets the page read the 402 challenge and the request id of a paid call', async () => {
    const response = await fetch(`${open.baseUrl}/api/x402/v1/detect-file-type`, {
      method: 'POST',
      headers: { Origin: PAGE, 'Content-Type': 'application/json' },
      body: JSON.stringify({ filename: 'a.png', size_bytes: 8, created_at: '2026-01-01T00:00:00Z', header_first_200_bytes_base64: Buffer.from('\x89PNG\r\n\x1a\n', 'latin1').toString('base64') }),
    });
    expect(response.status).toBe(402);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-expose-headers')).toMatch(/PAYMENT-REQUIRED.*PAYMENT-RESPONSE/);
  });

  it('with CORS_ALLOWED_ORIGINS, answers only the pages listed (echoing the origin, varying on it)', async () => {
    const from = (origin: string) => fetch(`${narrow.baseUrl}/api/x402/v1/health`, { headers: { Origin: origin } });
    const listed = await from(PAGE);
    expect(listed.headers.get('access-control-allow-origin')).toBe(PAGE);
    expect(listed.headers.get('vary')).toMatch(/Origin/);
    const other = await from('https://elsewhere.example');
    expect(other.status).toBe(200);
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    const preflight = await fetch(`${narrow.baseUrl}/api/v1/convert`, { method: 'OPTIONS', headers: { Origin: 'https://elsewhere.example', 'Access-Control-Request-Method': 'POST' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
  });
});
