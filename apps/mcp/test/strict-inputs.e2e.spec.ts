import { closeSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TINY_PNG } from './support/fixtures.js';
import { call, McpHarness, structured, text } from './support/mcp-harness.js';

describe('inputs are checked before anything is paid (live service, dev chain)', () => {
  let harness: McpHarness;
  beforeAll(async () => void (harness = await McpHarness.start()));
  afterAll(async () => harness?.stop());

  it('content_base64 that is not base64 is refused, and nothing is paid', async () => {
    const context = harness.context();
    const client = await harness.connect(context);
    const before = await harness.payerBalance();
    for (const tool of ['detect_file_type', 'convert_file', 'convert_and_download']) {
      const refused = await call(client, tool, { content_base64: 'notbase64!!', filename: 'x.png', target_format: 'webp' });
      expect(refused.isError, tool).toBe(true);
      expect(text(refused), tool).toContain('content_base64 is not valid base64');
    }
    expect(context.ledger.total()).toBe(0n);
    expect(await harness.payerBalance()).toBe(before);
  });

  it('base64 with line breaks and without padding is still base64', async () => {
    const client = await harness.connect(harness.context());
    const wrapped = TINY_PNG.toString('base64').replace(/=+$/, '').replace(/(.{20})/g, '$1\n');
    const detected = await call(client, 'detect_file_type', { content_base64: wrapped, filename: 'dot.png' });
    expect(detected.isError).toBeFalsy();
    expect(structured(detected)).toMatchObject({ format: 'png', paid_usdc: '0.002000' });
  });

  it('detect_file_type detects a 50 MB file from its first 200 bytes (over the 40 MB conversion limit)', async () => {
    const big = join(harness.dir, 'big.png');
    const fd = openSync(big, 'w');
    writeSync(fd, TINY_PNG);
    writeSync(fd, Buffer.alloc(1), 0, 1, 50 * 1024 * 1024 - 1); // a sparse file: 50 MB on paper
    closeSync(fd);
    const client = await harness.connect(harness.context());
    const detected = await call(client, 'detect_file_type', { path: big });
    expect(detected.isError, text(detected)).toBeFalsy();
    expect(structured(detected)).toMatchObject({ detected: true, format: 'png', paid_usdc: '0.002000' });
    // A conversion still refuses it before paying: the service converts up to 40 MB.
    const refused = await call(client, 'convert_file', { path: big, target_format: 'webp' });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toContain('the service converts files up to 41943040 bytes');
  });
});
