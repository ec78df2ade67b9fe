import type { EngineDescriptor } from '../../platform/engine-descriptor.js';

/** PDF pages as images (one file per page), and the text, HTML and Markdown of a PDF, through poppler. */
export const POPPLER_DESCRIPTOR: EngineDescriptor = {
  id: 'poppler',
  engineClass: 'documents',
  description: 'PDF pages to images, text, HTML and Markdown (poppler: pdftoppm, pdftotext, pdftohtml)',
  cost: 3,
  pairs: [
    { from: 'pdf', to: 'png', recommended: true, multipleOutputs: true, options: ['pages', 'dpi', 'width', 'height'] },
    { from: 'pdf', to: 'jpg', recommended: true, multipleOutputs: true, options: ['pages', 'dpi', 'width', 'height', 'quality'] },
    // The text of a real PDF: after another step (png → pdf) there would be none.
    // Pages without text (scans) are read by OCR (tesseract, the OCR engine's), in the languages asked for.
    { from: 'pdf', to: 'txt', options: ['pages', 'languages'], firstStepOnly: true },
    // pdftohtml lays the text out as on the page, in positioned lines: a table's cells are text, its rows and columns
    // are lost. So pdf → html, and every target after it, goes through the Markdown reader's tables where it can.
    { from: 'pdf', to: 'html', options: ['pages'], firstStepOnly: true, losses: ['table-layout'] },
    // Our own reader of pdftohtml's XML: headings, paragraphs, lists, tables and reading order for agents.
    { from: 'pdf', to: 'md', recommended: true, options: ['pages', 'languages'], firstStepOnly: true },
  ],
  // Rendering is the costly part: at most 200 pages are rendered or read, a page image at most 100 MP
  // (A4 at 600 dpi is 35 MP); the output cap holds for all the page images together.
  // A PDF's content streams can loop (each poppler run stops at 45 s of CPU, well before the step's time).
  // A step that reads scanned pages by OCR may take 10 minutes (50 pages), as the OCR engine's.
  limits: { timeoutMs: 600_000, maxOutputBytes: 512 * 1024 * 1024, maxPages: 200, maxPagePixels: 100_000_000, cpuSeconds: 45 },
  debianPackages: ['poppler-utils'],
};
