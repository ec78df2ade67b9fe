import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/test-app.js';

describe('rate limits on the x402 API (Redis-backed)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ ROLE: 'api', X402_RATE_LIMIT_PER_MINUTE: '5' });
  });
  afterAll(async () => t?.close());

  it('answers 429 with Retry-After past the limit, and never limits health', async () => {
    // Keep all requests inside one fixed window.
    const toNextMinute = 60_000 - (Date.now() % 60_000);
    if (toNextMinute < 5000) await new Promise((resolve) => setTimeout(resolve, toNextMinute + 100));
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await fetch(`${t.baseUrl}/api/x402/v1/convert-file/job_${'B'.repeat(32)}/status`)).status);
    expect(statuses.slice(0, 5)).toEqual([404, 404, 404, 404, 404]);
    expect(statuses.slice(5)).toEqual([429, 429]);
    const limited = await fetch(`${t.baseUrl}/api/x402/v1/`);
    expect(limited.status).toBe(429);
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(((await limited.json()) as { error: { code: string } }).error.code).toBe('rate_limited');
    expect((await fetch(`${t.baseUrl}/api/x402/v1/health`)).status).toBe(200);
  });
});
