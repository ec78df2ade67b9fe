import { availableParallelism } from 'node:os';
import { readFile, rm, stat } from 'node:fs/promises';
import sharp, { type FormatEnum } from 'sharp';
import { ConversionError } from './conversion-error.js';
import type { ConversionContext, ConversionOutcome, ConversionPair, ConversionRequest, Converter, EngineAvailability } from './converter.js';

const READS = ['jpg', 'png', 'webp', 'avif', 'tiff', 'gif', 'svg'] as const;
const WRITES = ['jpg', 'png', 'webp', 'avif', 'tiff', 'gif'] as const;
type Written = (typeof WRITES)[number];
const ANIMATED = new Set<string>(['gif', 'webp']);
/** What browsers and every viewer open. */
const RECOMMENDED = new Set<string>(['jpg', 'png', 'webp']);

/** libvips names; avif is heif with the AV1 codec. */
const OUTPUT_FORMAT: Record<Written, keyof FormatEnum> = {
  jpg: 'jpeg', png: 'png', webp: 'webp', avif: 'heif', tiff: 'tiff', gif: 'gif',
};

/** Raster images through sharp (libvips, prebuilt from npm, in-process); SVG as input only. */
export class SharpImageConverter implements Converter {
  readonly id = 'sharp';

  constructor(threads = Math.max(1, Math.floor(availableParallelism() / 2))) {
    // Process-wide libvips settings, set here once: leave cores to the server, and no file
    // cache (inputs are read once, and a cached handle would keep deleted uploads alive).
    sharp.concurrency(threads);
    sharp.cache({ files: 0, items: 50, memory: 50 });
  }

  async probe(): Promise<EngineAvailability> {
    return { available: true, version: `libvips ${sharp.versions.vips}` };
  }

  pairs(): readonly ConversionPair[] {
    return READS.flatMap((from) => WRITES.filter((to) => to !== from).map((to) => ({ from, to, recommended: RECOMMENDED.has(to) })));
  }

  async convert(request: ConversionRequest, context: ConversionContext): Promise<ConversionOutcome> {
    if (!(WRITES as readonly string[]).includes(request.to)) throw new ConversionError('unsupported_output_format', `This engine does not write ${request.to}.`);
    context.signal.throwIfAborted();
    const to = request.to as Written;
    const { limits } = context;
    try {
      // SVG from a buffer has no base directory, so its <image href> cannot pull in neighbouring files.
      const input = request.from === 'svg' ? await readFile(request.inputPath) : request.inputPath;
      await sharp(input, {
        limitInputPixels: limits.maxInputPixels,
        // Frames survive only between formats that animate; elsewhere the first frame is taken.
        animated: ANIMATED.has(request.from) && ANIMATED.has(to),
        failOn: 'error',
      })
        .rotate()
        .timeout({ seconds: Math.max(1, Math.ceil(limits.timeoutMs / 1000)) })
        .toFormat(OUTPUT_FORMAT[to], to === 'avif' ? { compression: 'av1' } : {})
        .toFile(request.outputPath);
    } catch (error) {
      await rm(request.outputPath, { force: true });
      throw toConversionError(error as Error, request.from);
    }
    const outputBytes = (await stat(request.outputPath)).size;
    if (outputBytes > limits.maxOutputBytes) {
      await rm(request.outputPath, { force: true });
      throw new ConversionError('file_too_large', `The output would be larger than ${limits.maxOutputBytes} bytes.`);
    }
    context.onProgress?.(100);
    return { engine: this.id, outputBytes };
  }
}

/** libvips messages carry paths: map them to a failure type and a message of our own. */
function toConversionError(error: Error, from: string): ConversionError {
  const text = error.message;
  if (/pixel limit/i.test(text)) return new ConversionError('security_rejected', 'The image declares more pixels than this service accepts.', false, text);
  if (/timeout/i.test(text)) return new ConversionError('timeout', 'The image conversion took too long.', true, text);
  if (/memory|cannot allocate/i.test(text)) return new ConversionError('file_too_large', 'The image is too large to convert.', false, text);
  return new ConversionError('unsupported_or_corrupt_input', `The input could not be read as a ${from} image.`, false, text);
}
