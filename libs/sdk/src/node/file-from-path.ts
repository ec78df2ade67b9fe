import { openAsBlob } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import type { FileInput } from '../file-input.js';

/** A file on disk as SDK input, read lazily: a file-backed Blob reads only what is sliced from it. */
export async function fileFromPath(path: string): Promise<FileInput> {
  const [blob, info] = await Promise.all([openAsBlob(path), stat(path)]);
  return { data: blob, filename: basename(path), createdAt: creationTimeOf(info) };
}

/** The birth time where the file system keeps one, else the last change. */
export function creationTimeOf(info: { birthtime: Date; mtime: Date }): Date {
  return info.birthtime.getTime() > 0 ? info.birthtime : info.mtime;
}
