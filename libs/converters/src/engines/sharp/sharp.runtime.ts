import { availableParallelism } from 'node:os';
import { readFile, rm, stat } from 'node:fs/promises';
import { holdsTransparency } from '@fileshift/formats';
import sharp, { type FormatEnum, type Sharp } from 'sharp';
import { ConversionError } from '../../platform/conversion-error.js';
import type { ConversionOptions } from '../../platform/conversion-options.js';
import { SHARP_DESCRIPTOR, SHARP_WRITES } from './sharp.descriptor.js';
import { type EngineAvailability, type EngineRuntime, singleOutput, type StepContext, type StepOutcome, type StepRequest } from '../../platform/engine-runtime.js';
import { StepDeadline } from '../../platform/step-deadline.js';

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
    const deadline = new StepDeadline(limits.timeoutMs);
    const outputPath = singleOutput(request.outputDir, to);
    try {
      // SVG from a buffer has no base directory, so its <image href> cannot pull in neighbouring files.
      const input = request.from === 'svg' ? await readFile(request.inputPath) : request.inputPath;
      // Frames survive only between formats that animate; elsewhere the first frame is taken.
      const animated = ANIMATED.has(request.from) && ANIMATED.has(to);
      const open = (page?: number) => sharp(input, { limitInputPixels: limits.maxInputPixels, animated: page === undefined && animated, page, failOn: 'error' });
      const source = open();
      const metadata = await source.metadata();
      const frames = animated ? (metadata.pages ?? 1) : 1;
      const frameHeight = frames > 1 ? (metadata.pageHeight ?? metadata.height) : metadata.height;
      const quarterTurned = (metadata.orientation ?? 1) >= 5;
      // The picture as it is shown: what a crop box is measured against.
      const shown = { width: quarterTurned ? frameHeight : metadata.width, height: quarterTurned ? metadata.width : frameHeight };
      if (options.crop) assertInside(options.crop, shown);
      const seconds = () => Math.max(1, Math.ceil(deadline.remainingMs() / 1000));
      let image: Sharp;
      let animation: object = {};
      if (frames > 1 && (quarterTurned || options.rotate === 90 || options.rotate === 270)) {
        // libvips turns a picture of several frames by 180° only: each frame is shaped alone, then they are joined again.
        if (metadata.width * metadata.height > (limits.maxInputPixels ?? Number.POSITIVE_INFINITY)) throw new ConversionError('security_rejected', 'The image declares more pixels than this service accepts.');
        const shaped: Buffer[] = [];
        for (let page = 0; page < frames; page++) {
          context.signal.throwIfAborted();
          shaped.push(await shape(open(page), options, shown).ensureAlpha().timeout({ seconds: seconds() }).png({ compressionLevel: 1 }).toBuffer());
        }
        image = sharp(shaped, { join: { animated: true }, limitInputPixels: limits.maxInputPixels });
        animation = { delay: metadata.delay, loop: metadata.loop };
      } else {
        image = shape(source, options, shown);
        // The input's colour profile stays with its pixels (a Display P3 photo keeps its wider colours); where the
        // colours change (grey, CMYK made RGB) libvips converts them to sRGB with it instead.
        if (metadata.hasProfile && RGB_SPACES.has(metadata.space ?? '') && !options.grayscale) image = image.keepIccProfile();
      }
      // A target without transparency gets the picture on white, as a viewer shows it (libvips would lay it on black).
      if (!holdsTransparency(to)) image = image.flatten({ background: '#ffffff' });
      await image
        .timeout({ seconds: seconds() })
        .toFormat(OUTPUT_FORMAT[to], { ...WRITE_OPTIONS[to], ...animation, ...(options.quality ? { quality: options.quality } : {}) })
        .toFile(outputPath);
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

type Crop = NonNullable<ConversionOptions['crop']>;
type Size = { width: number; height: number };

/** The interpretations whose profile can stay with the pixels (sharp writes RGB). */
const RGB_SPACES = new Set(['srgb', 'rgb', 'rgb16', 'scrgb']);

/**
 * The operations asked for, in the order people expect them: the crop (in the picture as shown), then the turn, then
 * the resize (width and height are the turned picture's), then grey. libvips turns before it crops whenever it also
 * resizes, so the crop box is turned with the picture: the same pixels either way.
 */
function shape(image: Sharp, options: ConversionOptions, shown: Size): Sharp {
  image = image.autoOrient();
  if (options.rotate) image = image.rotate(options.rotate);
  if (options.crop) image = image.extract(turnedBox(options.crop, shown, options.rotate ?? 0));
  if (options.width || options.height) image = image.resize({ width: options.width, height: options.height, fit: options.fit ?? 'inside' });
  if (options.grayscale) image = image.grayscale();
  return image;
}

/** A box of a `shown.width` × `shown.height` picture where it lies once the picture is turned clockwise by `angle`. */
function turnedBox(box: Crop, shown: Size, angle: number): Crop {
  const { left, top, width, height } = box;
  if (angle === 90) return { left: shown.height - top - height, top: left, width: height, height: width };
  if (angle === 180) return { left: shown.width - left - width, top: shown.height - top - height, width, height };
  if (angle === 270) return { left: top, top: shown.width - left - width, width: height, height: width };
  return box;
}

function assertInside(crop: Crop, shown: Size): void {
  if (crop.left + crop.width <= shown.width && crop.top + crop.height <= shown.height) return;
  throw new ConversionError(
    'unsupported_or_corrupt_input',
    `The crop box (left ${crop.left}, top ${crop.top}, width ${crop.width}, height ${crop.height}) reaches outside the picture, which is ${shown.width} × ${shown.height} pixels as shown.`,
  );
}

/** libvips messages carry paths: map them to a failure type and a message of our own. */
function toConversionError(error: Error, from: string): ConversionError {
  if (error instanceof ConversionError) return error;
  const text = error.message;
  if (/pixel limit/i.test(text)) return new ConversionError('security_rejected', 'The image declares more pixels than this service accepts.', false, text);
  if (/timeout/i.test(text)) return new ConversionError('timeout', 'The image conversion took too long.', true, text);
  if (/memory|cannot allocate/i.test(text)) return new ConversionError('file_too_large', 'The image is too large to convert.', false, text);
  return new ConversionError('unsupported_or_corrupt_input', `The input could not be read as a ${from} image.`, false, text);
}
