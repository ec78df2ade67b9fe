import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { hostTask } from '../../platform/node-host/node-host.protocol.js';

/**
 * An office package's metadata removed in the Node host (office-metadata.ts): the cleaned package, then its
 * pictures (JPEG, PNG…) for exiftool, in `pictures`' order; and what was removed.
 */
export interface OfficeMetadataTask {
  name: 'office-metadata';
  request: { format: string };
  answer: { notes: string[]; pictures: string[] };
}

/** The package with its pictures (entry names, in the order of the input files after the package) replaced. */
export interface OfficePicturesTask {
  name: 'office-pictures';
  request: { format: string; pictures: string[] };
}

/** The tasks exiftool runs in the Node host (see node-host-tasks.ts): it reads office packages there. */
export const EXIFTOOL_HOST_TASKS = [
  hostTask<OfficeMetadataTask>('office-metadata', async () => {
    const { stripOfficeMetadata } = await import('./office-metadata.js');
    return {
      run: async ({ request: { format }, inputPaths: [inputPath = ''], outputDir, limits }) => {
        const { package: cleaned, notes, pictures } = stripOfficeMetadata(await readFile(inputPath), format, limits);
        const packagePath = join(outputDir, `output.${format}`);
        await writeFile(packagePath, cleaned);
        const picturePaths: string[] = [];
        let index = 0;
        for (const [name, content] of pictures) {
          // The entry's own extension: exiftool refuses a picture whose name says another type.
          const path = join(outputDir, `picture-${String(++index).padStart(5, '0')}.${/\.([a-z]+)$/i.exec(name)![1]!.toLowerCase()}`);
          await writeFile(path, content);
          picturePaths.push(path);
        }
        return { files: [packagePath, ...picturePaths], answer: { notes, pictures: [...pictures.keys()] } };
      },
    };
  }),
  hostTask<OfficePicturesTask>('office-pictures', async () => {
    const { withPictures } = await import('./office-metadata.js');
    return {
      run: async ({ request: { format, pictures }, inputPaths: [packagePath = '', ...picturePaths], outputDir }) => {
        const replacements = new Map(await Promise.all(pictures.map(async (name, i) => [name, await readFile(picturePaths[i]!)] as const)));
        const output = join(outputDir, `output.${format}`);
        await writeFile(output, withPictures(await readFile(packagePath), replacements));
        return { files: [output] };
      },
    };
  }),
];
