import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterAll, describe, expect, it } from 'vitest';
import { StoredFileMissingError } from './file-storage.js';
import { LocalFileStorage } from './local-file-storage.js';
import { FileTooLargeError, putMetered } from './metered-put.js';

const root = mkdtempSync(join(tmpdir(), 'fileshift-storage-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('LocalFileStorage', () => {
  const storage = new LocalFileStorage(root);
  const chunks = (count: number, size: number) => Readable.from(Array.from({ length: count }, (_, i) => Buffer.alloc(size, i)));
  const failing = () =>
    new Readable({
      read() {
        this.push(Buffer.alloc(100, 1));
        this.destroy(new Error('client went away'));
      },
    });

  it('puts, gets, sizes and deletes a file by key', async () => {
    await storage.put('jobs/a/input', Readable.from(['hello ', 'world']));
    expect(await storage.exists('jobs/a/input')).toBe(true);
    expect(await storage.size('jobs/a/input')).toBe(11);
    expect(await text(await storage.get('jobs/a/input'))).toBe('hello world');
    await storage.put('jobs/a/input', Readable.from(['replaced']));
    expect(await text(await storage.get('jobs/a/input'))).toBe('replaced');
    await storage.delete('jobs/a/input');
    await storage.delete('jobs/a/input');
    expect(await storage.exists('jobs/a/input')).toBe(false);
    expect(await storage.size('jobs/a/input')).toBeNull();
    await expect(storage.get('jobs/a/input')).rejects.toBeInstanceOf(StoredFileMissingError);
  });

  it('leaves nothing behind when the body fails, not even a temporary file', async () => {
    await expect(storage.put('jobs/b/input', failing())).rejects.toThrow('client went away');
    expect(await storage.exists('jobs/b/input')).toBe(false);
    expect(readdirSync(join(root, 'jobs', 'b'))).toEqual([]);
  });

  it('measures a file while it streams in: size, digest and first 200 bytes', async () => {
    const stored = await putMetered(storage, 'uploads/a', chunks(10, 64), 1000);
    expect(stored.size).toBe(640);
    expect(stored.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(stored.head.length).toBe(200);
    expect(stored.head[199]).toBe(3);
    expect(await storage.size('uploads/a')).toBe(640);
  });

  it('stops a metered put past the limit and leaves nothing behind', async () => {
    await expect(putMetered(storage, 'uploads/big', chunks(10, 64), 600)).rejects.toBeInstanceOf(FileTooLargeError);
    expect(await storage.exists('uploads/big')).toBe(false);
    await expect(putMetered(storage, 'uploads/broken', failing(), 600)).rejects.toThrow('client went away');
    expect(await storage.exists('uploads/broken')).toBe(false);
  });

  it('refuses keys that could leave the root', async () => {
    for (const key of ['../x', 'a/../../x', '/etc/passwd', 'a\0b', 'a/./b', '']) {
      await expect(storage.put(key, Readable.from(['x'])), key).rejects.toThrow(/invalid storage key|escapes/);
      await expect(storage.get(key), key).rejects.toThrow(/invalid storage key|escapes/);
    }
  });
});
