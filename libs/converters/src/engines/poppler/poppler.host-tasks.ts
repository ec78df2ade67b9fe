import { hostTask } from '../../platform/node-host/node-host.protocol.js';
import type { OcrPages } from './pdf-text.js';

/** pdftohtml's parts of a PDF (and OCR's TSV of its scanned pages) rewritten as the step's Markdown or HTML (pdf-text.ts). */
export interface PdfTextTask {
  name: 'pdf-text';
  request: { to: 'md' | 'html'; title?: string; ocr?: OcrPages };
}

/** The tasks poppler runs in the Node host (see node-host-tasks.ts). */
export const POPPLER_HOST_TASKS = [
  hostTask<PdfTextTask>('pdf-text', async () => {
    const { pdfText } = await import('./pdf-text.js');
    return { run: async ({ request: { to, title, ocr }, inputPaths, outputDir, limits }) => ({ files: [await pdfText(to, inputPaths, title, outputDir, limits, ocr)] }) };
  }),
];
