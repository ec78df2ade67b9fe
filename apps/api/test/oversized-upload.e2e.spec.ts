import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/test-app.js';

const MB = 1024 * 1024;

/**
 * An upload over its limit is refused while the client is still sending it. The server stops reading
 * the body then; if it kept the connection open, a client with megabytes left to send would wait on a
 * full socket for an answer that never comes (it did, for about one upload in three).
 */
describe('an upload refused mid-body', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ ROLE: 'api' });
  });
  afterAll(async () => t?.close());

  const upload = (path: string, bytes: number, fields: Record<string, string> = {}) => {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    form.append('file', new Blob([Buffer.alloc(bytes, 1)]), 'big.png');
    // Far longer than an answer takes; a stalled connection fails here instead of hanging the suite.
    return fetch(`${t.baseUrl}${path}`, { method: 'POST', body: form, signal: AbortSignal.timeout(20_000) });
  };

  it('is answered 413 at once, again and again, and the connection closes after the answer', async () => {
    // The key API's no-key limit is 5 MB: sizes just over it, twice over and far over.
    for (const size of [6, 8, 8, 30, 8, 6]) {
      const response = await upload('/api/v1/upload', size * MB);
      expect(response.status, `${size} MB`).toBe(413);
      expect(response.headers.get('connection')).toBe('close');
      expect(((await response.json()) as { Message: string }).Message).toContain('5242880');
    }
    const paid = await upload('/api/x402/v1/convert-file', 46 * MB, { target_format: 'webp' });
    expect(paid.status).toBe(413);
    expect(((await paid.json()) as { error: { code: string } }).error.code).toBe('payload_too_large');
  });

  it('an answer after the whole body was read keeps the connection', async () => {
    const response = await upload('/api/v1/upload', 4 * MB);
    expect(response.status).toBe(200);
    expect(response.headers.get('connection')).not.toBe('close');
  });
});
