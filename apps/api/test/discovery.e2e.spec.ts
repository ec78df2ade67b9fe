import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startTestApp, type TestApp } from './support/test-app.js';

describe('free endpoints (real PostgreSQL and Redis)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t?.close());

  it('serves the HTML landing page with the flow, prices and links, with or without trailing slash', async () => {
    for (const path of ['/api/x402/v1/', '/api/x402/v1']) {
      const response = await fetch(`${t.baseUrl}${path}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      const html = await response.text();
      for (const link of ['/openapi.json', '/openapi.yaml', '/llms.txt', '/.well-known/x402.json', '/.well-known/did.json']) {
        expect(html).toContain(`href="${link}"`);
      }
      expect(html).toContain('0.002000 USDC');
      expect(html).toContain('0.020000–0.040000 USDC');
    }
  });

  it('serves an OpenAPI 3.1 document that a real validator accepts', async () => {
    const response = await fetch(`${t.baseUrl}/openapi.json`);
    expect(response.status).toBe(200);
    const document = (await response.json()) as Record<string, any>;
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.version).toBe('1.0.0');
    const validator = new Validator();
    const result = await validator.validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    expect(document.paths['/api/x402/v1/health'].get.responses['200']).toBeDefined();
    expect(document.components.schemas.ErrorResponse).toBeDefined();
    for (const schema of ['DetectFileTypeRequest', 'DetectFileTypeResponse', 'DetectedFormat', 'ConvertFileCompatibility', 'PaymentRequired']) {
      expect(document.components.schemas[schema], schema).toBeDefined();
    }
    const detect = document.paths['/api/x402/v1/detect-file-type'].post;
    expect(detect['x-payment-info']).toMatchObject({
      price: { mode: 'fixed', currency: 'USDC', amount: '0.002000' },
      // Dev mode offers both dev chains: the EVM one first, then the Solana one (its test mint, 6 decimals like USDC).
      protocols: [
        { x402: { scheme: 'exact', network: 'eip155:31337', amount: '2000' } },
        { x402: { scheme: 'exact', network: 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1', amount: '2000' } },
      ],
    });
    expect(detect.responses['402'].headers['PAYMENT-REQUIRED']).toBeDefined();
    expect(Object.keys(detect.responses)).toEqual(expect.arrayContaining(['200', '400', '402', '422', '429', '500', '503']));
    // Every key API operation: the Api-Key scheme, or none (the no-key testing limits); key API error shape.
    for (const path of ['upload', 'convert', 'list_ext_out', 'list_ext_out_by_type', 'detect_file_type']) {
      const operation = document.paths[`/api/v1/${path}`].post;
      expect(operation.security, path).toEqual([{ ApiKey: [] }, {}]);
      for (const [status, response] of Object.entries(operation.responses as Record<string, { content: Record<string, { schema: unknown }>; headers?: object }>)) {
        if (status === '200') continue;
        expect(response.content['application/json']!.schema, `${path} ${status}`).toEqual({ $ref: '#/components/schemas/KeyApiError' });
      }
      expect(Object.keys(operation.responses), path).toEqual(expect.arrayContaining(['200', '400', '401', '429', '500']));
      // A bad field is 400 in the key API; 422 means only a failed conversion.
      if (path !== 'convert') expect(operation.responses['422'], path).toBeUndefined();
      for (const status of ['200', '401', '429']) expect(operation.responses[status].headers, `${path} ${status}`).toHaveProperty('RateLimit-Remaining');
      expect(operation.responses['429'].headers).toHaveProperty('Retry-After');
    }
    const convert = document.paths['/api/v1/convert'].post.responses;
    expect(convert['422'].description).toMatch(/conversion failed/);
    expect(convert['504'].headers).toHaveProperty('Retry-After');
    expect(document.paths['/tmp/{file}'].get.responses['404']).toBeDefined();
    expect(document.paths['/tmp/{file}'].get.security).toBeUndefined();
    // Polling is paced by Retry-After on the accepted job and on its status.
    expect(document.paths['/api/x402/v1/convert-file'].post.responses['202'].headers).toHaveProperty('Retry-After');
    expect(document.paths['/api/x402/v1/convert-file/{job_id}/status'].get.responses['200'].headers).toHaveProperty('Retry-After');
    expect(document.components.securitySchemes.ApiKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'Api-Key' });
  });

  it('serves the same document as YAML', async () => {
    const [json, yaml] = await Promise.all([
      fetch(`${t.baseUrl}/openapi.json`).then((r) => r.json()),
      fetch(`${t.baseUrl}/openapi.yaml`),
    ]);
    expect(yaml.status).toBe(200);
    expect(yaml.headers.get('content-type')).toMatch(/^application\/yaml/);
    expect(parse(await yaml.text())).toEqual(json);
  });

  it('serves llms.txt and /.well-known/x402.json with the paid resources and prices', async () => {
    const llms = await fetch(`${t.baseUrl}/llms.txt`);
    expect(llms.status).toBe(200);
    expect(llms.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await llms.text();
    expect(text).toContain(`POST ${t.baseUrl}/api/x402/v1/detect-file-type`);
    expect(text).toContain('PAYMENT-SIGNATURE');
    expect(text).toContain(`${t.baseUrl}/.well-known/did.json (the key that signs`);
    expect(text).toContain(`POST ${t.baseUrl}/api/v1/convert {filename, ext_in, ext_out, options?} → waits up to 120 s`);
    // The conversions of the running workers' engines (this process runs a worker with sharp and ffmpeg at least).
    expect(text).toMatch(/^## Conversions available now \(\d+ pairs on the running workers' engines: .*sharp/m);
    expect(text).toMatch(/^- png → .*\bwebp\b/m);

    const wellKnown = await fetch(`${t.baseUrl}/.well-known/x402.json`);
    expect(wellKnown.status).toBe(200);
    const body = (await wellKnown.json()) as { resources: Array<{ resource: string; price: Record<string, string> }> };
    const detect = body.resources.find((r) => r.resource.endsWith('/detect-file-type'));
    expect(detect?.price).toMatchObject({ mode: 'fixed', amount: '0.002000', atomic_units: '2000' });
    expect((body as unknown as { devChain: { payerPrivateKey: string } }).devChain.payerPrivateKey).toMatch(/^0x[0-9a-f]{64}$/);
    const { conversions } = body as unknown as { conversions: { engines: string[]; pairs: number; from: Record<string, string[]> } };
    expect(conversions.engines).toEqual(expect.arrayContaining(['sharp', 'ffmpeg-audio']));
    expect(conversions.from.mp3).toEqual(expect.arrayContaining(['wav', 'flac']));
    expect(conversions.pairs).toBe(Object.values(conversions.from).flat().length);
    // A fixed-price resource publishes the challenge its unpaid request is answered with (less the reason), to sign from.
    const published = (detect as unknown as { paymentRequired: Record<string, unknown> }).paymentRequired;
    const unpaid = await fetch(`${t.baseUrl}/api/x402/v1/detect-file-type`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ filename: 'a.png', size_bytes: 100, header_first_200_bytes_base64: 'iVBORw0KGgo=' }),
    });
    expect(unpaid.status).toBe(402);
    const { error, ...challenge } = (await unpaid.json()) as Record<string, unknown>;
    expect(error).toBe('Payment required');
    expect(published).toEqual(challenge);
    expect((detect as unknown as { accepts: unknown[] }).accepts).toEqual(challenge.accepts);
    expect(challenge.accepts).toContainEqual(expect.objectContaining({ maxTimeoutSeconds: 300, extra: { name: 'USD Coin', version: '2' } }));
    const result = body.resources.find((r) => r.resource.endsWith('/result'));
    expect(result?.price).toMatchObject({
      mode: 'dynamic',
      min: '0.020000',
      max: '0.040000',
      tiers: [
        { name: 'standard', pricing_rule: 'file_size_lte_10mb', min_size_bytes: 1, max_size_bytes: 10485760, amount: '0.020000', atomic_units: '20000' },
        { name: 'large', pricing_rule: 'file_size_gt_10mb_lte_40mb', min_size_bytes: 10485761, max_size_bytes: 41943040, amount: '0.040000', atomic_units: '40000' },
      ],
    });
  });

  it('serves the format catalogue free: the live workers\' formats, targets, options and their schemas, as the OpenAPI document says', async () => {
    const response = await fetch(`${t.baseUrl}/api/x402/v1/formats`);
    expect(response.status).toBe(200);
    expect(response.headers.get('payment-required')).toBeNull();
    const catalogue = (await response.json()) as {
      pairs: number;
      formats: Array<{ id: string; extensions: string[]; targets: Array<{ format: string; options: string[]; losses: Array<{ kind: string; description: string }> }> }>;
      option_schemas: Record<string, object>;
    };
    const { conversions } = (await (await fetch(`${t.baseUrl}/.well-known/x402.json`)).json()) as { conversions: { pairs: number; from: Record<string, string[]> } };
    expect(catalogue.pairs).toBe(conversions.pairs);
    expect(Object.fromEntries(catalogue.formats.map((format) => [format.id, format.targets.map((target) => target.format)]))).toEqual(conversions.from);
    expect(catalogue.formats.find((format) => format.id === 'png')?.targets.find((target) => target.format === 'webp')?.options).toEqual(['crop', 'fit', 'grayscale', 'height', 'quality', 'rotate', 'width']);
    expect(catalogue.option_schemas.bitrate).toBeDefined();
    // What a pair loses, said before anyone pays: a PNG made JPEG is compressed with loss and laid on white; made WebP, nothing.
    const png = catalogue.formats.find((format) => format.id === 'png')!;
    expect(png.targets.find((target) => target.format === 'jpg')?.losses.map((loss) => loss.kind)).toEqual(['lossy-compression', 'transparency']);
    expect(png.targets.find((target) => target.format === 'tiff')?.losses).toEqual([]);
    const document = (await (await fetch(`${t.baseUrl}/openapi.json`)).json()) as Record<string, any>;
    expect(document.paths['/api/x402/v1/formats'].get.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/FormatCatalogue' });
  });

  it('answers health (liveness) and readiness with their documented shapes', async () => {
    const health = await fetch(`${t.baseUrl}/api/x402/v1/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok', service: 'fileshift', version: '0.0.0-test' });

    const ready = await fetch(`${t.baseUrl}/api/x402/v1/health/ready`);
    expect(ready.status).toBe(200);
    const body = (await ready.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ status: 'healthy', service: 'fileshift', checks: { database: 'up', redis: 'up' } });
    expect(Math.abs((body.timestamp as number) - Date.now() / 1000)).toBeLessThan(60);
  });

  it('gives every response a request id, echoing a well-formed incoming one', async () => {
    const own = await fetch(`${t.baseUrl}/api/x402/v1/health`, { headers: { 'x-request-id': 'trace-abc_123' } });
    expect(own.headers.get('x-request-id')).toBe('trace-abc_123');
    const generated = await fetch(`${t.baseUrl}/api/x402/v1/health`, { headers: { 'x-request-id': 'bad id with spaces' } });
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers unknown routes 404 in the shape of the API they fall under', async () => {
    const x402 = await fetch(`${t.baseUrl}/api/x402/v1/no-such-thing`);
    expect(x402.status).toBe(404);
    expect(await x402.json()).toEqual({ error: { code: 'not_found', message: 'No such resource.' } });

    const key = await fetch(`${t.baseUrl}/api/v1/no-such-thing`, { method: 'POST' });
    expect(key.status).toBe(404);
    expect(await key.json()).toEqual({ Status: 'Error', Message: 'No such resource.' });
  });
});
