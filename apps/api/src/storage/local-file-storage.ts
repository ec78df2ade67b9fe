import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { copyFile, mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type FileStorage, StoredFileMissingError } from './file-storage.js';
import { assertStorageKey } from './storage-key.js';

/**
 * Files under one directory. Keys are validated so none can reach outside it, and a put writes a
 * temporary file renamed into place, so a reader never sees half a file and a failed put leaves nothing.
 */
export class LocalFileStorage implements FileStorage {
  private readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  async put(key: string, body: Readable): Promise<void> {
    const path = this.pathOf(key);
    await mkdir(dirname(path), { recursive: true });
    const partial = `${path}.partial-${randomBytes(6).toString('hex')}`;
    try {
      await pipeline(body, createWriteStream(partial, { flags: 'wx' }));
      await rename(partial, path);
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
  }

  async get(key: string): Promise<Readable> {
    const handle = await open(this.pathOf(key), 'r').catch((error: NodeJS.ErrnoException) => {
      throw error.code === 'ENOENT' ? new StoredFileMissingError(key) : error;
    });
    return handle.createReadStream();
  }

  async copyToFile(key: string, path: string): Promise<void> {
    await copyFile(this.pathOf(key), path).catch(async (error: NodeJS.ErrnoException) => {
      // ENOENT names no side: the stored file, or where it was to go.
      throw error.code === 'ENOENT' && !(await this.exists(key)) ? new StoredFileMissingError(key) : error;
    });
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  async size(key: string): Promise<number | null> {
    return stat(this.pathOf(key)).then(
      (s) => (s.isFile() ? s.size : null),
      () => null,
    );
  }

  async exists(key: string): Promise<boolean> {
    return (await this.size(key)) !== null;
  }

  private pathOf(key: string): string {
    assertStorageKey(key);
    const path = join(this.root, key);
    if (!path.startsWith(this.root + sep)) throw new Error(`storage key escapes the root: ${key}`);
    return path;
  }
}
