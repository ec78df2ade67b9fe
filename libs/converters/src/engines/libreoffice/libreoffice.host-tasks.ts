import { hostTask } from '../../platform/node-host/node-host.protocol.js';
import type { InputPreparationTask } from '../../platform/node-host/prepare-input.js';

/** LibreOffice's input, prepared in the Node host: HTML without the dates that abort it, RTF without the fields that read files. */
export interface LibreOfficeInputTask extends InputPreparationTask {
  name: 'libreoffice-input';
}

/** The tasks LibreOffice runs in the Node host (see node-host-tasks.ts). */
export const LIBREOFFICE_HOST_TASKS = [
  hostTask<LibreOfficeInputTask>('libreoffice-input', async () => {
    const { loadableInput } = await import('./loadable-input.js');
    return {
      run: async ({ request: { from }, inputPaths: [inputPath = ''], outputDir }) => {
        const loadable = await loadableInput({ inputPath, outputDir, from });
        return { files: loadable === inputPath ? [] : [loadable] };
      },
    };
  }),
];
