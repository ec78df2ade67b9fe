import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { copyFile, link, mkdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { Transform } from 'node:stream';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type FileStorage, FileTooLargeError, type StoredFile } from './file-storage.js';

const HEAD_BYTES = 200;
const KEY = /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_.-]+)*$/;

/** Files under one directory; keys are validated so no key can reach outside it. */
export class LocalFileStorage implements FileStorage {
  private readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  async write(key: string, source: Readable, maxBytes: number): Promise<StoredFile> {
    const path = await this.prepare(key);
    const hash = createHash('sha256');
    const head: Buffer[] = [];
    let size = 0;
    const meter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        size += chunk.length;
        if (size > maxBytes) return done(new FileTooLargeError(maxBytes));
        hash.update(chunk);
        if (size - chunk.length < HEAD_BYTES) head.push(chunk.subarray(0, HEAD_BYTES - (size - chunk.length)));
        done(null, chunk);
      },
    });
    try {
      await pipeline(source, meter, createWriteStream(path, { flags: 'wx' }));
    } catch (error) {
      await rm(path, { force: true });
      throw error;
    }
    return { size, sha256: hash.digest('hex'), head: Buffer.concat(head) };
  }

  read(key: string): Readable {
    return createReadStream(this.pathOf(key));
  }

  async size(key: string): Promise<number | null> {
    return stat(this.pathOf(key)).then((s) => s.size, () => null);
  }

  async move(from: string, to: string): Promise<void> {
    const target = await this.prepare(to);
    await rename(this.pathOf(from), target);
  }

  /** A hard link where the file system allows it (no bytes copied; both names stay independent to delete). */
  async copy(from: string, to: string): Promise<void> {
    const source = this.pathOf(from);
    const target = await this.prepare(to);
    await link(source, target).catch(() => copyFile(source, target));
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  async localPath(key: string): Promise<string> {
    return this.prepare(key);
  }

  private pathOf(key: string): string {
    if (!KEY.test(key) || key.split('/').some((part) => part === '..' || part === '.')) throw new Error(`invalid storage key ${JSON.stringify(key)}`);
    const path = join(this.root, key);
    if (!path.startsWith(this.root + sep)) throw new Error(`storage key escapes the root: ${key}`);
    return path;
  }

  private async prepare(key: string): Promise<string> {
    const path = this.pathOf(key);
    await mkdir(dirname(path), { recursive: true });
    return path;
  }
}
