import type { EngineDescriptor, EnginePair } from '../../platform/engine-descriptor.js';

/** Raster formats sharp does not read, which ImageMagick turns into PNG (from there sharp and img2pdf go on). */
export const IMAGEMAGICK_READS = ['bmp', 'ico', 'tga', 'ppm', 'pgm', 'pbm', 'psd', 'jp2', 'heic', 'pcx', 'xpm'] as const;
/** What it writes from PNG or JPEG: the same formats, where its coders write them well. */
export const IMAGEMAGICK_WRITES = ['bmp', 'ico', 'tga', 'ppm', 'pgm', 'pbm', 'jp2', 'pcx'] as const;
const RECOMMENDED = new Set(['png', 'bmp', 'ico']);

const pairs: EnginePair[] = [
  ...IMAGEMAGICK_READS.map((from) => ({ from, to: 'png', recommended: true })),
  ...(['png', 'jpg'] as const).flatMap((from) => IMAGEMAGICK_WRITES.map((to) => ({ from, to, recommended: RECOMMENDED.has(to) }))),
];

/**
 * Raster images through ImageMagick 6 under our own policy (only the coders named here, no delegates, no
 * indirect paths, bounded memory, pixels and time), every file read and written by the coder we name.
 */
export const IMAGEMAGICK_DESCRIPTOR: EngineDescriptor = {
  id: 'imagemagick',
  engineClass: 'images',
  description: `images (ImageMagick, restrictive policy): ${IMAGEMAGICK_READS.join(' ')} → png; png, jpg → ${IMAGEMAGICK_WRITES.join(' ')}`,
  cost: 3,
  pairs,
  limits: { timeoutMs: 120_000, maxOutputBytes: 512 * 1024 * 1024, maxInputPixels: 100_000_000 },
  debianPackages: ['imagemagick'],
};
