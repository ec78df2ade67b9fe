import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, McpHarness, structured, text } from './support/mcp-harness.js';
import { noisePng } from './support/noise-png.js';

describe('a result over the embedding limit comes back as a link and a resource only (live service, dev chain)', () => {
  let harness: McpHarness;
  beforeAll(async () => void (harness = await McpHarness.start()));
  afterAll(async () => harness?.stop());

  it('says it was too big to embed, and resources/read still returns every byte', async () => {
    const noise = join(harness.dir, 'noise.png');
    writeFileSync(noise, noisePng(1000, 1000)); // as a GIF: about 1.4 MB
    const client = await harness.connect(harness.context());
    const converted = await call(client, 'convert_and_download', { path: noise, target_format: 'gif', embed: true });
    expect(converted.isError, text(converted)).toBeFalsy();
    const result = structured<{ path: string; resource_uri: string; size_bytes: number }>(converted);
    expect(result.size_bytes).toBeGreaterThan(1024 * 1024);
    expect(result).toMatchObject({ embedded_as: null, too_big_to_embed: true, mime_type: 'image/gif' });
    expect(converted.content.map((block) => block.type)).toEqual(['text', 'resource_link']);
    expect(text(converted)).toContain(`too big to embed here (${result.size_bytes} bytes, over 1048576)`);
    const read = await client.readResource({ uri: result.resource_uri });
    expect(read.contents[0]).toMatchObject({ mimeType: 'image/gif', blob: readFileSync(result.path).toString('base64') });
  });
});
