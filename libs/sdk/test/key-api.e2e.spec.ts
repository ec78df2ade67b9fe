import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, createClient, RateLimitedError } from '../src/index.js';
import { type LiveService, startLiveService } from '@fileshift/testing';
import { tinyPng } from './support/dev-chain.js';

const isWebp = (bytes: Uint8Array) => Buffer.from(bytes.subarray(0, 4)).toString() === 'RIFF' && Buffer.from(bytes.subarray(8, 12)).toString() === 'WEBP';
const NO_KEY_REQUESTS_PER_MINUTE = 3;

describe('the key API (/api/v1) against the live service', () => {
  const png = { data: new Blob([tinyPng() as Uint8Array<ArrayBuffer>], { type: 'image/png' }), filename: 'dot.png' };
  let service: LiveService;

  beforeAll(async () => {
    service = await startLiveService({ KEY_API_ANONYMOUS_REQUESTS_PER_MINUTE: String(NO_KEY_REQUESTS_PER_MINUTE) });
  });
  afterAll(async () => service?.stop());

  it('with an API key: lists formats, uploads, converts and downloads', async () => {
    const client = createClient({ baseUrl: service.baseUrl, apiKey: service.createApiKey('sdk-test') });
    expect(await client.listFormats('png')).toEqual(expect.arrayContaining(['webp', 'jpg']));
    const byType = await client.listFormatsByType('wav');
    expect(byType).toMatchObject({ type: 'audio', extensions_by_type: { audio: expect.objectContaining({ mp3: expect.any(Number) }) } });
    expect(byType).not.toHaveProperty('Status');
    const filename = await client.upload(png);
    const converted = await client.convert({ filename, extIn: 'png', extOut: 'webp' });
    expect(converted.extOut).toBe('webp');
    expect(converted.urls[0]).toMatch(new RegExp(`^${service.baseUrl}/tmp/[A-Za-z0-9_-]{32}\\.webp$`));
    expect(isWebp(new Uint8Array(await (await fetch(converted.urls[0]!)).arrayBuffer()))).toBe(true);
  });

  it('detects as a sentence or as JSON', async () => {
    const client = createClient({ baseUrl: service.baseUrl, apiKey: service.createApiKey('sdk-detect') });
    expect(await client.detect(png)).toMatch(/^The file is most likely a PNG image .*\(format "png"/);
    expect(await client.detect(png, { as: 'json' })).toMatchObject({ Status: 'OK', detected: true, format: 'png', mime_type: 'image/png' });
  });

  it('without a valid key the low per-IP limits apply: a refused key is a typed 401 and counts; past them, a RateLimitedError says when to retry', async () => {
    const refused = await createClient({ baseUrl: service.baseUrl, apiKey: `fsk_${'x'.repeat(43)}` })
      .listFormats('png')
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ status: 401, message: 'Invalid API key.' });
    // The service counts a refused key against its client IP, like a request without a key.
    const anonymous = createClient({ baseUrl: service.baseUrl });
    for (let call = 1; call < NO_KEY_REQUESTS_PER_MINUTE; call++) expect(await anonymous.listFormats('png')).toContain('webp');
    const limited = await anonymous.listFormats('png').catch((e: unknown) => e);
    expect(limited).toBeInstanceOf(RateLimitedError);
    expect((limited as RateLimitedError).retryAfter).toBeGreaterThanOrEqual(1);
  });
});
