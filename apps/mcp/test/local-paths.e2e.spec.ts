import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TINY_PNG } from './support/fixtures.js';
import { call, McpHarness, structured, text } from './support/mcp-harness.js';

describe('local paths are read only inside the allowed roots, symlinks resolved (live service, dev chain)', () => {
  let harness: McpHarness;
  let outside: string;
  beforeAll(async () => {
    harness = await McpHarness.start();
    outside = mkdtempSync(join(tmpdir(), 'mcp-outside-'));
    writeFileSync(join(outside, 'secret.png'), TINY_PNG);
    symlinkSync(join(outside, 'secret.png'), join(harness.dir, 'link-to-secret.png'));
    symlinkSync(outside, join(harness.dir, 'linked-dir'));
    writeFileSync(join(harness.dir, 'empty.png'), '');
  });
  afterAll(async () => {
    await harness?.stop();
    rmSync(outside, { recursive: true, force: true });
  });

  it('with no roots configured and none declared, a path is refused saying what to do; nothing is paid', async () => {
    const context = harness.context({ FILESHIFT_ALLOWED_ROOTS: '' });
    const client = await harness.connect(context);
    const before = await harness.payerBalance();
    for (const tool of ['detect_file_type', 'convert_and_download']) {
      const refused = await call(client, tool, { path: harness.png, target_format: 'webp' });
      expect(refused.isError, tool).toBe(true);
      expect(text(refused), tool).toContain('No local directory is allowed: set FILESHIFT_ALLOWED_ROOTS');
    }
    expect(context.ledger.total()).toBe(0n);
    expect(await harness.payerBalance()).toBe(before);
  });

  it('refuses `..`, a symlinked file and a symlinked directory leading out of the root, and a missing file outside; reads a file inside', async () => {
    const context = harness.context();
    const client = await harness.connect(context);
    const escapes = [
      join(harness.dir, '..', basename(outside), 'secret.png'),
      join(harness.dir, 'link-to-secret.png'),
      join(harness.dir, 'linked-dir', 'secret.png'),
      join(outside, 'no-such-file.png'),
    ];
    for (const path of escapes) {
      const refused = await call(client, 'convert_and_download', { path, target_format: 'webp' });
      expect(refused.isError, path).toBe(true);
      expect(text(refused), path).toContain('is outside the allowed roots');
    }
    expect(context.ledger.total()).toBe(0n);
    const inside = await call(client, 'detect_file_type', { path: harness.png });
    expect(inside.isError, text(inside)).toBeFalsy();
    expect(structured(inside)).toMatchObject({ format: 'png', paid_usdc: '0.002000' });
  });

  it("uses the roots a client declares instead of the configured ones, and follows the client's roots/list_changed", async () => {
    const context = harness.context(); // configured: the scratch directory
    const client = await harness.connect(context, { capabilities: { roots: { listChanged: true } } });
    let roots: string[] = [];
    client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: roots.map((dir) => ({ uri: pathToFileURL(dir).href, name: basename(dir) })) }));

    const none = await call(client, 'convert_file', { path: harness.png, target_format: 'webp' });
    expect(text(none)).toContain('The client declares no file roots');

    roots = [outside];
    await client.sendRootsListChanged();
    const notDeclared = await call(client, 'convert_file', { path: harness.png, target_format: 'webp' });
    expect(text(notDeclared)).toContain(`is outside the allowed roots (${outside})`);
    const declared = await call(client, 'detect_file_type', { path: join(outside, 'secret.png') });
    expect(declared.isError, text(declared)).toBeFalsy();
    expect(structured(declared)).toMatchObject({ format: 'png' });

    roots = [harness.dir];
    await client.sendRootsListChanged();
    expect(text(await call(client, 'detect_file_type', { path: join(outside, 'secret.png') }))).toContain('is outside the allowed roots');
    // Read now (an empty file is refused after the root check, before paying).
    expect(text(await call(client, 'convert_file', { path: join(harness.dir, 'empty.png'), target_format: 'webp' }))).toBe(`${join(harness.dir, 'empty.png')} is empty.`);
    expect(context.ledger.total()).toBe(2_000n); // the one detection
  });
});
