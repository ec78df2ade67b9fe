import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { FileTooLargeError } from './file-storage.js';
import { LocalFileStorage } from './local-file-storage.js';

const root = mkdtempSync(join(tmpdir(), 'fileshift-storage-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('LocalFileStorage', () => {
  const storage = new LocalFileStorage(root);
  const chunks = (count: number, size: number) => Readable.from(Array.from({ length: count }, (_, i) => Buffer.alloc(size, i)));

  it('streams a file in, with its size, digest and first 200 bytes', async () => {
    const stored = await storage.write('uploads/a', chunks(10, 64), 1000);
    expect(stored.size).toBe(640);
    expect(stored.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(stored.head.length).toBe(200);
    expect(stored.head[199]).toBe(3);
    expect(await storage.size('uploads/a')).toBe(640);
    await storage.move('uploads/a', 'jobs/x/input');
    expect(await storage.size('uploads/a')).toBeNull();
    await storage.delete('jobs/x/input');
    expect(await storage.size('jobs/x/input')).toBeNull();
  });

  it('copies a file so that either name can be deleted without the other', async () => {
    await storage.write('uploads/original', chunks(2, 10), 1000);
    await storage.copy('uploads/original', 'jobs/y/input');
    await storage.delete('uploads/original');
    expect(await storage.size('jobs/y/input')).toBe(20);
  });

  it('stops past the limit and leaves nothing behind', async () => {
    await expect(storage.write('uploads/big', chunks(10, 64), 600)).rejects.toBeInstanceOf(FileTooLargeError);
    expect(await storage.size('uploads/big')).toBeNull();
  });

  it('refuses keys that could leave the root', async () => {
    for (const key of ['../x', 'a/../../x', '/etc/passwd', 'a\0b', 'a/./b', '']) {
      await expect(storage.localPath(key), key).rejects.toThrow(/invalid storage key|escapes/);
    }
  });
});
