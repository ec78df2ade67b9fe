import { tinyPng } from '@fileshift/testing';
import { describe, expect, it } from 'vitest';
import { runKeyApi, stack, unpaidClient } from '../support/stack-target.js';

describe.skipIf(!runKeyApi)('key API on the stack (a key is known: STACK_API_KEY, or made with the CLI)', () => {
  it('has a key to test with', () => {
    expect(stack.apiKey, 'no key API key: pass --api-key or STACK_API_KEY').toBeDefined();
  });

  it('detects a file with the key', async () => {
    const detection = await unpaidClient().detect({ data: tinyPng(), filename: 'dot' }, { as: 'json' });
    expect(JSON.stringify(detection)).toMatch(/png/i);
  });

  it('uploads, converts and serves the result', async () => {
    const client = unpaidClient();
    const filename = await client.upload({ data: tinyPng(), filename: 'dot.png' });
    const converted = await client.convert({ filename, extIn: 'png', extOut: 'jpg' });
    expect(converted.urls).toHaveLength(1);
    const download = await fetch(converted.urls[0]!);
    expect(download.status).toBe(200);
    const bytes = new Uint8Array(await download.arrayBuffer());
    expect([bytes[0], bytes[1], bytes[2]]).toEqual([0xff, 0xd8, 0xff]);
  });

  it('refuses a wrong key in its error shape', async () => {
    const response = await fetch(`${stack.baseUrl}/api/v1/list_ext_out`, { method: 'POST', headers: { 'Api-Key': 'fsk_wrong', 'content-type': 'application/json' }, body: JSON.stringify({ ext_in: 'png' }) });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ Status: 'Error', Message: 'Invalid API key.' });
  });
});
