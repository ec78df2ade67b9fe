import { readFile, stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { z } from 'zod';

/** The largest file the service converts (40 MiB). */
export const MAX_FILE_BYTES = 41_943_040;

/** How a tool receives a file: a local path (stdio only), or its bytes in base64 with a name. */
export const fileInputShape = {
  path: z.string().min(1).optional().describe('Path of a local file (stdio transport only).'),
  content_base64: z.string().min(1).optional().describe('The file content, base64-encoded (instead of path).'),
  filename: z.string().min(1).max(255).optional().describe('File name with extension; required with content_base64.'),
};

export interface FileInput {
  path?: string;
  content_base64?: string;
  filename?: string;
}

export interface LoadedFile {
  bytes: Uint8Array;
  filename: string;
  createdAt: Date;
}

/** A problem with the file the agent named, phrased so it can fix the call. */
export class FileInputError extends Error {}

export async function loadFileInput(input: FileInput, { allowLocalPaths }: { allowLocalPaths: boolean }): Promise<LoadedFile> {
  if (input.path && input.content_base64) throw new FileInputError('Give either path or content_base64, not both.');
  if (input.path) {
    if (!allowLocalPaths) throw new FileInputError('Local paths are read only over the stdio transport; send content_base64 and filename instead.');
    const path = resolve(input.path);
    const info = await stat(path).catch(() => null);
    if (!info?.isFile()) throw new FileInputError(`No readable file at ${path}.`);
    if (info.size > MAX_FILE_BYTES) throw new FileInputError(`${path} has ${info.size} bytes; the service converts files up to ${MAX_FILE_BYTES} bytes.`);
    if (info.size === 0) throw new FileInputError(`${path} is empty.`);
    return { bytes: await readFile(path), filename: input.filename ?? basename(path), createdAt: info.birthtime.getTime() > 0 ? info.birthtime : info.mtime };
  }
  if (input.content_base64) {
    if (!input.filename) throw new FileInputError('content_base64 needs a filename (with its extension).');
    const bytes = Buffer.from(input.content_base64, 'base64');
    if (bytes.length === 0) throw new FileInputError('content_base64 decodes to no bytes.');
    if (bytes.length > MAX_FILE_BYTES) throw new FileInputError(`The file has ${bytes.length} bytes; the service converts files up to ${MAX_FILE_BYTES} bytes.`);
    return { bytes, filename: input.filename, createdAt: new Date() };
  }
  throw new FileInputError('Give the file as path (a local file) or as content_base64 with filename.');
}
