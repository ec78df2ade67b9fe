import { mkdir, open } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';

/** Writes a result into the output directory under its own name, never over an existing file. */
export async function saveResult(outputDir: string, filename: string, data: Uint8Array): Promise<string> {
  await mkdir(outputDir, { recursive: true });
  const safe = basename(filename).replace(/[^\w.-]/g, '_') || 'result';
  const stem = safe.slice(0, safe.length - extname(safe).length);
  for (let attempt = 0; ; attempt++) {
    const path = join(outputDir, attempt === 0 ? safe : `${stem}-${attempt}${extname(safe)}`);
    const file = await open(path, 'wx').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'EEXIST') return null;
      throw error;
    });
    if (!file) continue;
    try {
      await file.writeFile(data);
    } finally {
      await file.close();
    }
    return path;
  }
}
