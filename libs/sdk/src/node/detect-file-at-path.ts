import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import type { FileshiftClient } from '../client.js';
import { HEADER_BYTES } from '../file-sample.js';
import type { DetectFileOptions } from '../x402-api.js';
import { creationTimeOf } from './file-from-path.js';

/**
 * Detects a file on disk (a paid call) from its name, times, size (stat) and first 200 bytes: no
 * more of the file is read, however large it is.
 */
export async function detectFileAtPath(client: Pick<FileshiftClient, 'detectFile'>, path: string, options: DetectFileOptions = {}): ReturnType<FileshiftClient['detectFile']> {
  const info = await stat(path);
  options.signal?.throwIfAborted(); // before the stream opens the file
  // The stream covers only the bytes detection reads; sizeBytes is the whole file's, so nothing counts the rest.
  const head = createReadStream(path, { start: 0, end: HEADER_BYTES - 1 });
  return client.detectFile({ data: head, filename: basename(path), createdAt: creationTimeOf(info), sizeBytes: info.size }, options);
}
