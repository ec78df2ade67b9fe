import { stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { hostTask } from '../../platform/node-host/node-host.protocol.js';
import type { InputPreparationTask } from '../../platform/node-host/prepare-input.js';

/** calibre's input, prepared in the Node host: books screened, DOCX without links to local files. */
export interface CalibreInputTask extends InputPreparationTask {
  name: 'calibre-input';
}

/** The tasks calibre runs in the Node host (see node-host-tasks.ts). */
export const CALIBRE_HOST_TASKS = [
  hostTask<CalibreInputTask>('calibre-input', async () => {
    const { screenEbookInput } = await import('./ebook-input.screen.js');
    return {
      run: async ({ request: { from }, inputPaths: [inputPath = ''], outputDir, limits }) => {
        const cleaned = await screenEbookInput(inputPath, from, (await stat(inputPath)).size, limits);
        if (!cleaned) return { files: [] };
        const copy = join(outputDir, `input.${from}`);
        await writeFile(copy, cleaned);
        return { files: [copy] };
      },
    };
  }),
];
