import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { buffer, text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3TestServer, type S3TestServer } from '../../test/support/s3-test-server.js';
import type { StorageConfig } from '../config/app-config.js';
import { createFileStorage } from './create-file-storage.js';
import { type FileStorage, StoredFileMissingError } from './file-storage.js';

const MB = 1024 * 1024;

/** `count` chunks of 64 KiB, each different, so a part stored out of order changes the digest. */
function chunks(count: number): Readable {
  let index = 0;
  return new Readable({
    read() {
      if (index === count) return void this.push(null);
      this.push(Buffer.alloc(64 * 1024, createHash('sha256').update(String(index++)).digest()));
    },
  });
}
const digest = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
/** A body that delivers `bytes`, then fails as a client that goes away mid-upload. */
function failingAfter(bytes: number): Readable {
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= bytes) return void this.destroy(new Error('client went away'));
      sent += 64 * 1024;
      this.push(Buffer.alloc(64 * 1024, 7));
    },
  });
}

interface Driver {
  name: string;
  start(): Promise<{ storage: FileStorage; stop(): Promise<void>; storedKeys?: () => Promise<string[]> }>;
}

const drivers: Driver[] = [
  {
    name: 'local directory',
    async start() {
      const dataDir = mkdtempSync(join(tmpdir(), 'fileshift-contract-'));
      const storage: StorageConfig = { driver: 'local' };
      return { storage: createFileStorage({ dataDir, storage }), stop: async () => rmSync(dataDir, { recursive: true, force: true }) };
    },
  },
  {
    name: 'S3 (s3rver)',
    async start() {
      const server: S3TestServer = await startS3TestServer();
      return { storage: createFileStorage({ dataDir: '.unused', storage: { driver: 's3', s3: server.config } }), stop: () => server.close(), storedKeys: () => server.keys() };
    },
  },
];

/** What every driver must do, run against each for real. */
describe.each(drivers)('FileStorage contract: $name', (driver) => {
  let storage: FileStorage;
  let stop: () => Promise<void>;
  let storedKeys: (() => Promise<string[]>) | undefined;
  beforeAll(async () => ({ storage, stop, storedKeys } = await driver.start()));
  afterAll(() => stop?.());

  it('round-trips a multi-MB stream and reports its size', async () => {
    const expected = await buffer(chunks(192));
    await storage.put('jobs/big/input', chunks(192));
    expect(await storage.size('jobs/big/input')).toBe(12 * MB);
    expect(await storage.exists('jobs/big/input')).toBe(true);
    expect(digest(await buffer(await storage.get('jobs/big/input')))).toBe(digest(expected));
  });

  it('stores an empty file', async () => {
    await storage.put('jobs/empty/input', Readable.from([]));
    expect(await storage.size('jobs/empty/input')).toBe(0);
    expect((await buffer(await storage.get('jobs/empty/input'))).length).toBe(0);
  });

  it('replaces what a key held', async () => {
    await storage.put('jobs/replace/output.txt', chunks(100));
    await storage.put('jobs/replace/output.txt', Readable.from(['replaced']));
    expect(await text(await storage.get('jobs/replace/output.txt'))).toBe('replaced');
    expect(await storage.size('jobs/replace/output.txt')).toBe(8);
  });

  it('leaves nothing under the key when the body fails, early or after several parts', async () => {
    for (const [key, bytes] of [['jobs/fail-early/input', 64 * 1024], ['jobs/fail-late/input', 11 * MB]] as const) {
      await expect(storage.put(key, failingAfter(bytes)), key).rejects.toThrow('client went away');
      expect(await storage.exists(key), key).toBe(false);
      await expect(storage.get(key)).rejects.toBeInstanceOf(StoredFileMissingError);
    }
    if (storedKeys) expect((await storedKeys()).filter((key) => key.startsWith('jobs/fail'))).toEqual([]);
  });

  it('keeps the earlier file when a replacing body fails', async () => {
    await storage.put('jobs/keep/input', Readable.from(['earlier']));
    await expect(storage.put('jobs/keep/input', failingAfter(6 * MB))).rejects.toThrow('client went away');
    expect(await text(await storage.get('jobs/keep/input'))).toBe('earlier');
  });

  it('answers a missing key: get fails with StoredFileMissingError, size is null, delete is fine (twice)', async () => {
    await expect(storage.get('jobs/none/input')).rejects.toBeInstanceOf(StoredFileMissingError);
    expect(await storage.size('jobs/none/input')).toBeNull();
    expect(await storage.exists('jobs/none/input')).toBe(false);
    await storage.put('jobs/gone/input', Readable.from(['x']));
    await storage.delete('jobs/gone/input');
    await storage.delete('jobs/gone/input');
    expect(await storage.exists('jobs/gone/input')).toBe(false);
    await expect(storage.get('jobs/gone/input')).rejects.toBeInstanceOf(StoredFileMissingError);
  });

  it('copies a stored file to a local path, replacing what was there; a missing key fails with StoredFileMissingError', async () => {
    const expected = await buffer(chunks(40));
    await storage.put('jobs/copy/input', chunks(40));
    const dir = mkdtempSync(join(tmpdir(), 'fileshift-copy-'));
    try {
      writeFileSync(join(dir, 'input'), 'an older, longer file that must not survive the copy');
      await storage.copyToFile('jobs/copy/input', join(dir, 'input'));
      expect(digest(readFileSync(join(dir, 'input')))).toBe(digest(expected));
      await expect(storage.copyToFile('jobs/none/input', join(dir, 'other'))).rejects.toBeInstanceOf(StoredFileMissingError);
      await expect(storage.copyToFile('jobs/copy/input', join(dir, 'no-such-dir', 'input'))).rejects.not.toBeInstanceOf(StoredFileMissingError);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses the same malformed keys', async () => {
    for (const key of ['../x', 'a/../../x', '/etc/passwd', 'a\0b', 'a/./b', 'a//b', '']) {
      await expect(storage.put(key, Readable.from(['x'])), key).rejects.toThrow(/invalid storage key/);
      await expect(storage.get(key), key).rejects.toThrow(/invalid storage key/);
      await expect(storage.copyToFile(key, join(tmpdir(), 'never-written')), key).rejects.toThrow(/invalid storage key/);
    }
  });
});
