import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, McpHarness, structured, text } from './support/mcp-harness.js';

interface Catalogue {
  pairs: number;
  formats: Array<{ id: string; targets: Array<{ format: string; options: string[] }> }>;
  option_schemas: Record<string, unknown>;
}

describe('list_formats and conversion options, against the live service on the dev chain', () => {
  let harness: McpHarness;
  beforeAll(async () => void (harness = await McpHarness.start()));
  afterAll(async () => harness?.stop());

  it('list_formats is free and read-only: the whole catalogue, or one format by id or extension, with the options of each target', async () => {
    const client = await harness.connect(harness.context());
    const before = await harness.payerBalance();
    const { tools } = await client.listTools();
    expect(tools.find((tool) => tool.name === 'list_formats')?.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });

    const all = structured<Catalogue>(await call(client, 'list_formats'));
    expect(all.formats.length).toBeGreaterThan(10);
    expect(all.pairs).toBe(all.formats.reduce((sum, format) => sum + format.targets.length, 0));
    expect(all.option_schemas).toHaveProperty('quality');

    const jpeg = await call(client, 'list_formats', { source_format: 'JPEG' });
    expect(jpeg.isError, text(jpeg)).toBeFalsy();
    expect(structured<Catalogue>(jpeg).formats.map((format) => format.id)).toEqual(['jpg']);
    expect(text(jpeg)).toMatch(/^jpg \(image\) → .*webp \[[^\]]*quality/);

    const unknown = await call(client, 'list_formats', { source_format: 'nope' });
    expect(unknown.isError).toBe(true);
    expect(text(unknown)).toMatch(/reads no format named "nope".*png/);
    expect(await harness.payerBalance()).toBe(before);
  });

  it('convert_and_download passes its options to the service: a width resizes the result', async () => {
    const client = await harness.connect(harness.context());
    const result = await call(client, 'convert_and_download', { path: harness.png, target_format: 'gif', options: { width: 4 } });
    expect(result.isError, text(result)).toBeFalsy();
    const bytes = readFileSync(structured<{ path: string }>(result).path);
    expect(bytes.subarray(0, 6).toString()).toMatch(/^GIF8[79]a$/);
    // Logical screen width, little-endian; the source is 8 pixels wide.
    expect(bytes.readUInt16LE(6)).toBe(4);
  });

  it('an option that does not apply, or a misspelt target, is refused with a clear message and nothing is paid', async () => {
    const client = await harness.connect(harness.context());
    const before = await harness.payerBalance();
    const inapplicable = await call(client, 'convert_file', { path: harness.png, target_format: 'webp', options: { bitrate: '128k' } });
    expect(inapplicable.isError).toBe(true);
    expect(text(inapplicable)).toMatch(/before any payment, nothing was paid.*options\.bitrate: does not apply here; this conversion takes .*quality/);

    const misspelt = await call(client, 'convert_and_download', { path: harness.png, target_format: 'wepb' });
    expect(misspelt.isError).toBe(true);
    expect(text(misspelt)).toMatch(/"wepb" is not a format Fileshift converts to\. Nothing was paid\..*list_formats.*webp/);

    const badValue = await call(client, 'convert_file', { path: harness.png, target_format: 'webp', options: { fit: 'stretch' } });
    expect(badValue.isError).toBe(true);
    expect(await harness.payerBalance()).toBe(before);
  });
});
