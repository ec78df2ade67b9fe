import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from './create-logger.js';

describe('createLogger', () => {
  it('redacts every credential header, whatever logs the request', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const logger = createLogger({ logLevel: 'info', role: 'api', version: 'test' }, sink);
    const headers = { 'api-key': 'fsk_secret', authorization: 'Bearer t0ken', 'payment-signature': 'c2lnbmVk', 'x-payment': 'eDQwMg==', cookie: 'session=s3cr3t', accept: 'application/json' };
    logger.info({ req: { method: 'POST', url: '/api/v1/convert', headers } }, 'request');

    const line = JSON.parse(lines.join('')) as { req: { headers: Record<string, string> } };
    expect(line.req.headers).toEqual({ 'api-key': '[redacted]', authorization: '[redacted]', 'payment-signature': '[redacted]', 'x-payment': '[redacted]', cookie: '[redacted]', accept: 'application/json' });
    for (const secret of ['fsk_secret', 't0ken', 'c2lnbmVk', 'eDQwMg==', 's3cr3t']) expect(lines.join('')).not.toContain(secret);
  });
});
