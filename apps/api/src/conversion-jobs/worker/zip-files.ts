import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import yazl from 'yazl';

/**
 * Writes files into one ZIP at `zipPath`, stored without compression (pages are PNG or JPEG already),
 * each under its name.
 */
export async function zipFiles(files: ReadonlyArray<{ path: string; name: string }>, zipPath: string): Promise<void> {
  const zip = new yazl.ZipFile();
  for (const file of files) zip.addFile(file.path, file.name, { compress: false });
  zip.end();
  await pipeline(zip.outputStream, createWriteStream(zipPath));
}
