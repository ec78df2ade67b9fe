import type { EngineDescriptor } from '../../platform/engine-descriptor.js';

/** Images into a PDF without re-encoding them (img2pdf): lossless, one page per image. */
export const IMG2PDF_DESCRIPTOR: EngineDescriptor = {
  id: 'img2pdf',
  engineClass: 'documents',
  description: 'images to PDF, lossless (img2pdf): jpg png tiff, several into one',
  cost: 2,
  pairs: ['jpg', 'png', 'tiff'].map((from) => ({ from, to: 'pdf', recommended: true })),
  // Pictures into one PDF, a page each, in order.
  joins: [{ into: 'pdf', members: ['jpg', 'png', 'tiff'] }],
  // maxPages: a multi-frame TIFF makes a page per frame; a join's pictures make this many pages at most together.
  limits: { timeoutMs: 60_000, maxOutputBytes: 512 * 1024 * 1024, maxInputPixels: 100_000_000, maxPages: 1000 },
  debianPackages: ['img2pdf'],
};
