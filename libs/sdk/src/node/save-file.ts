import { writeFile } from 'node:fs/promises';

/** Writes a converted file's bytes to `path`. */
export async function saveFile(path: string, data: Uint8Array): Promise<void> {
  await writeFile(path, data);
}
