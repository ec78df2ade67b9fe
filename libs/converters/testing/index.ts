// Sample files from several producers and the independent decoders outputs are checked with: for the
// engines' tests, the conversion matrix and the service's end-to-end tests. Test-only (no build output).
export * from './document-checks.js';
export * from './hand-written-pdf.js';
export * from './legacy-office-samples.js';
export * from './office-samples.js';
export * from './pdf-samples.js';
export * from './vba-project.js';
export * from './zip-writer.js';
export * from './media-samples.js';
export * from './markup-samples.js';
export * from './ebook-samples.js';
export * from './data-samples.js';
export * from './archive-samples.js';
export * from './raster-samples.js';
export * from './script-samples.js';
export * from './drawn-text.js';
export * from './ocr-samples.js';
export * from './sandboxed-processes.js';
