import { availableParallelism } from 'node:os';
import { readFile, rm, stat } from 'node:fs/promises';
import { holdsTransparency } from '@fileshift/formats';
import sharp, { type FormatEnum } from 'sharp';
import { ConversionError } from '../../platform/conversion-error.js';
import { SHARP_DESCRIPTOR, SHARP_WRITES } from './sharp.descriptor.js';
import { type EngineAvailability, type EngineRuntime, singleOutput, type StepContext, type StepOutcome, type StepRequest } from '../../platform/engine-runtime.js';

type Written = (typeof SHARP_WRITES)[number];
const ANIMATED = new Set<string>(['gif', 'webp']);

/** libvips names; avif is heif with the AV1 codec. */
const OUTPUT_FORMAT: Record<Written, keyof FormatEnum> = {
  jpg: 'jpeg', png: 'png', webp: 'webp', avif: 'heif', tiff: 'tiff', gif: 'gif',
};

/** What each format is written with beyond sharp's defaults: AVIF is AV1 in HEIF; TIFF lossless (sharp's default is JPEG inside). */
const WRITE_OPTIONS: Partial<Record<Written, object>> = {
  avif: { compression: 'av1' },
  tiff: { compression: 'deflate', predictor: 'horizontal' },
};

/** Raster images through sharp (libvips, prebuilt from npm, in-process); SVG as input only. */
export class SharpImageRuntime implements EngineRuntime {
  readonly descriptor = SHARP_DESCRIPTOR;

  constructor(threads = Math.max(1, Math.floor(availableParallelism() / 2))) {
    // Process-wide libvips settings, set here once: leave cores to the server, and no file
    // cache (inputs are read once, and a cached handle would keep deleted uploads alive).
    sharp.concurrency(threads);
    sharp.cache({ files: 0, items: 50, memory: 50 });
  }

  async probe(): Promise<EngineAvailability> {
    return { available: true, version: `libvips ${sharp.versions.vips}` };
  }

  async convert(request: StepRequest, context: StepContext): Promise<StepOutcome> {
    if (!(SHARP_WRITES as readonly string[]).includes(request.to)) throw new ConversionError('unsupported_output_format', `This engine does not write ${request.to}.`);
    context.signal.throwIfAborted();
    const to = request.to as Written;
    const { limits, options } = { limits: context.limits, options: request.options };
    const outputPath = singleOutput(request.outputDir, to);
    try {
      // SVG from a buffer has no base directory, so its <image href> cannot pull in neighbouring files.
      const input = request.from === 'svg' ? await readFile(request.inputPath) : request.inputPath;
      let image = sharp(input, {
        limitInputPixels: limits.maxInputPixels,
        // Frames survive only between formats that animate; elsewhere the first frame is taken.
        animated: ANIMATED.has(request.from) && ANIMATED.has(to),
        failOn: 'error',
      })
        .rotate()
        .timeout({ seconds: Math.max(1, Math.ceil(limits.timeoutMs / 1000)) });
      if (options.width || options.height) image = image.resize({ width: options.width, height: options.height, fit: options.fit ?? 'inside' });
      // A target without transparency gets the picture on white, as a viewer shows it (libvips would lay it on black).
      if (!holdsTransparency(to)) image = image.flatten({ background: '#ffffff' });
      await image.toFormat(OUTPUT_FORMAT[to], { ...WRITE_OPTIONS[to], ...(options.quality ? { quality: options.quality } : {}) }).toFile(outputPath);
    } catch (error) {
      await rm(outputPath, { force: true });
      throw toConversionError(error as Error, request.from);
    }
    const outputBytes = (await stat(outputPath)).size;
    if (outputBytes > limits.maxOutputBytes) {
      await rm(outputPath, { force: true });
      throw new ConversionError('file_too_large', `The output would be larger than ${limits.maxOutputBytes} bytes.`);
    }
    context.onProgress?.(100);
    return { files: [outputPath] };
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
