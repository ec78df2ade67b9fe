import type { OptionName } from '../../platform/conversion-options.js';
import { allPairs, type EngineDescriptor } from '../../platform/engine-descriptor.js';

export const SHARP_READS = ['jpg', 'png', 'webp', 'avif', 'tiff', 'gif', 'svg'] as const;
export const SHARP_WRITES = ['jpg', 'png', 'webp', 'avif', 'tiff', 'gif'] as const;
const LOSSY = new Set(['jpg', 'webp', 'avif']);
/** What browsers and every viewer open. */
const RECOMMENDED = new Set(['jpg', 'png', 'webp']);

/** Raster images through sharp (libvips, prebuilt from npm, in-process); SVG as input only. */
export const SHARP_DESCRIPTOR: EngineDescriptor = {
  id: 'sharp',
  engineClass: 'images',
  description: 'images (libvips through sharp, from npm): jpg png webp avif tiff gif, svg input',
  cost: 1,
  pairs: allPairs(SHARP_READS, SHARP_WRITES, (to) => ({
    recommended: RECOMMENDED.has(to),
    options: [...(LOSSY.has(to) ? (['quality'] as OptionName[]) : []), 'width', 'height', 'fit'],
  })),
  // An SVG can ask librsvg for endless work (filters, nested patterns): 30 s of CPU, well before the step's 120 s.
  limits: { timeoutMs: 120_000, maxOutputBytes: 512 * 1024 * 1024, maxInputPixels: 100_000_000, cpuSeconds: 30 },
  debianPackages: [],
};
