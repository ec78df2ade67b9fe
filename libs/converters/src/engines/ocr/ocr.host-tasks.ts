import { hostTask } from '../../platform/node-host/node-host.protocol.js';

/** A picture's frames checked by sharp, and the flattened copies tesseract needs of some (ocr-pictures.ts). */
export interface OcrPagesTask {
  name: 'ocr-pages';
  request: undefined;
  answer: { frames: number };
}

/** tesseract's TSV of a picture laid out as Markdown (ocr-markdown.ts). */
export interface OcrMarkdownTask {
  name: 'ocr-markdown';
  request: undefined;
}

/** The tasks OCR runs in the Node host (see node-host-tasks.ts). */
export const OCR_HOST_TASKS = [
  hostTask<OcrPagesTask>('ocr-pages', async () => {
    const { ocrPictures } = await import('./ocr-pictures.js');
    return {
      run: async ({ inputPaths: [inputPath = ''], outputDir, limits }) => {
        const { frames, copies } = await ocrPictures(inputPath, outputDir, limits);
        return { files: copies, answer: { frames } };
      },
    };
  }),
  hostTask<OcrMarkdownTask>('ocr-markdown', async () => {
    const { ocrMarkdown } = await import('./ocr-markdown.js');
    return { run: async ({ inputPaths: [tsvPath = ''], outputDir, limits }) => ({ files: [await ocrMarkdown(tsvPath, outputDir, limits)] }) };
  }),
];
