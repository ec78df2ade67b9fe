import sharp, { type FormatEnum } from 'sharp';
import { ConversionError } from './conversion-error.js';
import type { ConversionContext, ConversionPair, ConversionRequest, Converter } from './converter.js';

const READS = ['jpg', 'png', 'webp', 'avif', 'tiff', 'gif', 'svg'] as const;
const WRITES = ['jpg', 'png', 'webp', 'avif', 'tiff', 'gif'] as const;
const RECOMMENDED = new Set(['jpg', 'png', 'webp']);
/** Refuses decompression bombs: 100 megapixels is far above any photo we expect. */
export const MAX_INPUT_PIXELS = 100_000_000;

const OUTPUT_FORMAT: Record<(typeof WRITES)[number], keyof FormatEnum | 'avif'> = {
  jpg: 'jpeg', png: 'png', webp: 'webp', avif: 'avif', tiff: 'tiff', gif: 'gif',
};

/** Raster images through sharp (libvips, prebuilt from npm); SVG as input only. */
export class SharpImageConverter implements Converter {
  readonly id = 'sharp';

  async probe() {
    return { available: true, version: sharp.versions.vips };
  }

  pairs(): readonly ConversionPair[] {
    return READS.flatMap((from) => WRITES.filter((to) => to !== from).map((to) => ({ from, to, recommended: RECOMMENDED.has(to) })));
  }

  async convert(request: ConversionRequest, context: ConversionContext): Promise<void> {
    const to = request.to as (typeof WRITES)[number];
    if (!OUTPUT_FORMAT[to]) throw new ConversionError('unsupported_output_format', `sharp does not write ${request.to}.`);
    context.signal.throwIfAborted();
    try {
      await sharp(request.inputPath, { limitInputPixels: MAX_INPUT_PIXELS, animated: to === 'gif' || to === 'webp' })
        .rotate()
        .toFormat(OUTPUT_FORMAT[to])
        .toFile(request.outputPath);
    } catch (error) {
      const message = (error as Error).message;
      if (/pixel limit/i.test(message)) {
        throw new ConversionError('security_rejected', `The image has more than ${MAX_INPUT_PIXELS} pixels.`, false, message);
      }
      throw new ConversionError('unsupported_or_corrupt_input', `The input could not be read as a ${request.from} image.`, false, message);
    }
    context.onProgress?.(100);
  }
}
