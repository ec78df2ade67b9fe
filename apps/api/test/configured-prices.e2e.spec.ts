import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startTestApp, type TestApp } from './support/test-app.js';
import { decodeBase64Json } from './support/x402-payer.js';

const MIB = 1024 * 1024;

/** Prices and limits other than every default, so that a figure written into a document instead of read from the configuration shows. */
const CONFIGURED = {
  PRICE_DETECT_ATOMIC: '3000',
  PRICE_JOB_ATOMIC: '4000',
  PRICE_RESULT_STANDARD_ATOMIC: '50000',
  PRICE_RESULT_LARGE_ATOMIC: '70000',
  KEY_API_ANONYMOUS_MAX_UPLOAD_BYTES: String(3 * MIB),
  KEY_API_DEFAULT_MAX_UPLOAD_BYTES: String(30 * MIB),
  KEY_API_CONVERT_WAIT_SECONDS: '90',
};

/** The default figures in any spelling a document uses: amounts (0.002, 0.020000…), atomic units as JSON or YAML values, sizes and the wait. */
const DEFAULT_FIGURES: RegExp[] = [
  /\b0\.0(02|2|4)0*\b/,
  /\b(amount|atomic_units)"?: ?"(2000|20000|40000)"/,
  /\b5 MB\b/,
  /\b40 MB by default\b/,
  /\b120 s\b/,
];

describe('published documents state the configured prices and limits (real PostgreSQL and Redis)', () => {
  let t: TestApp;
  const documents = new Map<string, string>();

  beforeAll(async () => {
    t = await startTestApp({ ...CONFIGURED, ROLE: 'api' });
    for (const path of ['/openapi.json', '/openapi.yaml', '/llms.txt', '/api/x402/v1', '/.well-known/x402.json', '/api/x402/v1/formats']) {
      const response = await fetch(`${t.baseUrl}${path}`);
      expect(response.status, path).toBe(200);
      documents.set(path, await response.text());
    }
    const unpaid = await fetch(`${t.baseUrl}/api/x402/v1/detect-file-type`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ filename: 'a.png', size_bytes: 100, header_first_200_bytes_base64: 'iVBORw0KGgo=' }),
    });
    expect(unpaid.status).toBe(402);
    documents.set('402 body', await unpaid.text());
    documents.set('402 PAYMENT-REQUIRED', JSON.stringify(decodeBase64Json(unpaid.headers.get('payment-required'))));
  });
  afterAll(async () => t?.close());

  it('states no default figure anywhere', () => {
    expect(documents.size).toBe(8);
    for (const [path, text] of documents) {
      for (const figure of DEFAULT_FIGURES) expect(text.match(figure)?.[0], `${path} ${figure}`).toBeUndefined();
    }
  });

  it('states the configured prices in the OpenAPI document, as JSON and as YAML', () => {
    const json = JSON.parse(documents.get('/openapi.json')!) as Record<string, any>;
    expect(parse(documents.get('/openapi.yaml')!)).toEqual(json);
    const result = json.paths['/api/x402/v1/convert-file/{job_id}/result'].get;
    expect(result.summary).toBe('Buy a finished result (paid: dynamic price by uploaded size, 0.05 or 0.07 USDC).');
    expect(result['x-payment-info'].price).toEqual({ mode: 'dynamic', currency: 'USDC', min: '0.050000', max: '0.070000' });
    const detect = json.paths['/api/x402/v1/detect-file-type'].post['x-payment-info'];
    expect(detect.price).toEqual({ mode: 'fixed', currency: 'USDC', amount: '0.003000' });
    expect(detect.protocols.map((protocol: { x402: { amount: string } }) => protocol.x402.amount)).toEqual(detect.protocols.map(() => '3000'));
    expect(json.paths['/api/x402/v1/convert-file'].post['x-payment-info'].price.amount).toBe('0.004000');
  });

  it('states the configured key API limits in the OpenAPI document', () => {
    const json = JSON.parse(documents.get('/openapi.json')!) as Record<string, any>;
    const upload = json.paths['/api/v1/upload'].post;
    expect(upload.description).toContain("Size limit: the key's (30 MB by default; 3 MB without a key).");
    expect(upload.responses['413'].description).toBe("The upload is larger than the caller's limit (the key's, or 3 MB without a key).");
    expect(json.paths['/api/v1/convert'].post.summary).toContain('up to 90 s');
  });

  it('states the configured prices in llms.txt, on the landing page and in /.well-known/x402.json', () => {
    const llms = documents.get('/llms.txt')!;
    expect(llms).toContain('Price: 0.003000 USDC.');
    expect(llms).toContain('Price: 0.004000 USDC.');
    expect(llms).toContain('Price: 0.050000–0.070000 USDC (0.050000 for uploads up to 10485760 bytes, 0.070000 up to 41943040 bytes).');
    expect(llms).toContain('waits up to 90 s');
    const landing = documents.get('/api/x402/v1')!;
    expect(landing).toContain('<td>0.003000 USDC</td>');
    expect(landing).toContain('0.050000–0.070000 USDC');
    const wellKnown = JSON.parse(documents.get('/.well-known/x402.json')!) as { resources: Array<{ operationId: string; price: Record<string, unknown> }> };
    const priceOf = (operationId: string) => wellKnown.resources.find((resource) => resource.operationId === operationId)?.price;
    expect(priceOf('detectFileType')).toMatchObject({ amount: '0.003000', atomic_units: '3000' });
    expect(priceOf('createConversionJob')).toMatchObject({ amount: '0.004000', atomic_units: '4000' });
    expect(priceOf('purchaseConversionResult')).toMatchObject({
      min: '0.050000',
      max: '0.070000',
      tiers: [expect.objectContaining({ amount: '0.050000', atomic_units: '50000' }), expect.objectContaining({ amount: '0.070000', atomic_units: '70000' })],
    });
  });

  it('asks the configured price in a 402 challenge', () => {
    for (const source of ['402 body', '402 PAYMENT-REQUIRED']) {
      const challenge = JSON.parse(documents.get(source)!) as { accepts: Array<{ amount: string }> };
      expect(challenge.accepts.length, source).toBeGreaterThan(0);
      expect(challenge.accepts.map((accepted) => accepted.amount), source).toEqual(challenge.accepts.map(() => '3000'));
    }
  });
});
