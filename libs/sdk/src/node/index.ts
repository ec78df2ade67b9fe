import { openAsBlob } from 'node:fs';
import { stat, writeFile } from 'node:fs/promises';
import { basename } from 'node:path';
import type { FileInput } from '../file-input.js';

/** A file on disk as SDK input, read lazily (a 40 MB file is not loaded to be detected). */
export async function fileFromPath(path: string): Promise<FileInput> {
  const [blob, info] = await Promise.all([openAsBlob(path), stat(path)]);
  return { data: blob, filename: basename(path), createdAt: info.birthtime.getTime() > 0 ? info.birthtime : info.mtime };
}

/** Writes a converted file's bytes to `path`. */
export async function saveFile(path: string, data: Uint8Array): Promise<void> {
  await writeFile(path, data);
}
