import { describe, expect, it } from 'vitest';
import { discovery, stack, unpaidClient } from '../support/stack-target.js';

describe('the stack answers as one service', () => {
  it('is healthy and ready: its database, Redis and object store answer', async () => {
    const health = await fetch(`${stack.baseUrl}/api/x402/v1/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok', service: expect.any(String), version: expect.any(String) });
    expect((await fetch(`${stack.baseUrl}/api/x402/v1/health/ready`)).status).toBe(200);
  });

  it('describes its payments at /.well-known/x402.json', () => {
    expect(['dev', 'live']).toContain(discovery.paymentsMode);
    expect(discovery.devChain === undefined).toBe(discovery.paymentsMode === 'live');
  });

  it('offers what its workers convert, every engine class among them (the workers\' capabilities merged)', async () => {
    const catalogue = await unpaidClient().getFormats();
    const targetsOf = (input: string) => catalogue.formats.find((format) => format.id === input)?.targets.map((target) => target.format) ?? [];
    expect(targetsOf('png')).toContain('webp');
    expect(targetsOf('docx')).toContain('pdf');
    expect(targetsOf('wav')).toContain('mp3');
  });

  it('serves its OpenAPI document', async () => {
    const response = await fetch(`${stack.baseUrl}/openapi.json`);
    expect(response.status).toBe(200);
    expect(((await response.json()) as { openapi: string }).openapi).toMatch(/^3\.1/);
  });
});
