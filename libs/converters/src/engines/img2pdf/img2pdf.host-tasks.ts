import { hostTask } from '../../platform/node-host/node-host.protocol.js';

/** An image's frames read by sharp, and the 8-bit copies img2pdf needs of some (image-pages.ts). */
export interface ImagePagesTask {
  name: 'image-pages';
  request: undefined;
  answer: { frames: number };
}

/** The tasks img2pdf runs in the Node host (see node-host-tasks.ts). */
export const IMG2PDF_HOST_TASKS = [
  hostTask<ImagePagesTask>('image-pages', async () => {
    const { imagePages } = await import('./image-pages.js');
    return {
      run: async ({ inputPaths: [inputPath = ''], outputDir, limits }) => {
        const { frames, copies } = await imagePages(inputPath, outputDir, limits);
        return { files: copies, answer: { frames } };
      },
    };
  }),
];
