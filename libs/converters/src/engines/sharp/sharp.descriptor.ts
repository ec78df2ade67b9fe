import { z } from 'zod';
import type { OptionName } from '../../platform/conversion-options.js';
import { allPairs, type EngineDescriptor, type EnginePair } from '../../platform/engine-descriptor.js';

export const SHARP_READS = ['jpg', 'png', 'webp', 'avif', 'tiff', 'gif', 'svg'] as const;
export const SHARP_WRITES = ['jpg', 'png', 'webp', 'avif', 'tiff', 'gif'] as const;
const LOSSY = new Set(['jpg', 'webp', 'avif']);
/** What browsers and every viewer open. */
const RECOMMENDED = new Set(['jpg', 'png', 'webp']);

const side = z.number().int().min(1).max(16_384);

/** The picture operations sharp declares (`rotate` is the platform's: a PDF's pages turn too). */
export const SHARP_OPTION_SCHEMAS = {
  crop: z
    .strictObject({ left: z.number().int().min(0), top: z.number().int().min(0), width: side, height: side })
    .describe('The rectangle of the picture to keep, in pixels of the picture as it is shown (after its EXIF orientation), before it is turned (rotate) or resized: {"left": 0, "top": 0, "width": 800, "height": 600}.'),
  grayscale: z.literal(true).describe('true: the picture in shades of grey.'),
};

declare module '../../platform/conversion-options.js' {
  interface EngineOptionSchemas {
    crop: (typeof SHARP_OPTION_SCHEMAS)['crop'];
    grayscale: (typeof SHARP_OPTION_SCHEMAS)['grayscale'];
  }
}

const attributes = (to: string): Omit<EnginePair, 'from' | 'to'> => ({
  recommended: RECOMMENDED.has(to),
  options: [...(LOSSY.has(to) ? (['quality'] as OptionName[]) : []), 'width', 'height', 'fit', 'rotate', 'crop', 'grayscale'],
});

/**
 * Raster images through sharp (libvips, prebuilt from npm, in-process); SVG as input only. Each format it writes to
 * itself too (jpg → jpg: a photo turned, cropped, made grey or smaller), never offered first: that is an operation,
 * not a conversion.
 */
export const SHARP_DESCRIPTOR: EngineDescriptor = {
  id: 'sharp',
  engineClass: 'images',
  description: 'images (libvips through sharp, from npm): jpg png webp avif tiff gif, svg input; crop, rotate, resize, grey',
  cost: 1,
  pairs: [...allPairs(SHARP_READS, SHARP_WRITES, attributes), ...SHARP_WRITES.map((format) => ({ from: format, to: format, ...attributes(format), recommended: false }))],
  // An SVG can ask librsvg for endless work (filters, nested patterns): 30 s of CPU, well before the step's 120 s.
  limits: { timeoutMs: 120_000, maxOutputBytes: 512 * 1024 * 1024, maxInputPixels: 100_000_000, cpuSeconds: 30 },
  debianPackages: [],
  options: SHARP_OPTION_SCHEMAS,
};
