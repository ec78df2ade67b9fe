import { join } from 'node:path';
import sharp, { type Metadata } from 'sharp';
import { ConversionError } from '../../platform/conversion-error.js';
import type { EngineLimits } from '../../platform/engine-descriptor.js';

/** What img2pdf learns from an image: its frames, and the files to give img2pdf (copies where img2pdf needs them). */
export interface ImagePages {
  frames: number;
  /** Empty: the input as it is. */
  copies: string[];
}

/** sharp's names of the formats img2pdf takes. */
const IMG2PDF_READS = ['jpeg', 'png', 'tiff'];

/**
 * What img2pdf is to be given for an image, read by sharp in the Node host: its headers only (format, each
 * frame's size, frame count, alpha, depth) — frames past `maxPages` and frames past `maxInputPixels` are refused
 * before anything is decoded — and, for what Debian 12's img2pdf 0.4.4 refuses (alpha in TIFF or in a 16-bit PNG,
 * any TIFF of more than 8 bits per sample), each frame as an 8-bit PNG, RGBA where it has alpha (stored with it as a
 * soft mask).
 */
export async function imagePages(path: string, outputDir: string, limits: EngineLimits): Promise<ImagePages> {
  const metadata = await sharp(path).metadata().catch((error: Error) => {
    throw new ConversionError('unsupported_or_corrupt_input', 'The input could not be read as an image.', false, error.message);
  });
  if (!IMG2PDF_READS.includes(metadata.format ?? '')) throw new ConversionError('unsupported_or_corrupt_input', 'The input is not a jpg, png or tiff image.');
  const frames = metadata.pages ?? 1;
  if (limits.maxPages !== undefined && frames > limits.maxPages) {
    throw new ConversionError('file_too_large', `The image has ${frames} frames; at most ${limits.maxPages} pages are made at a time.`);
  }
  const sizes: Metadata[] = frames === 1 ? [metadata] : await Promise.all(Array.from({ length: frames }, (_, page) => sharp(path, { page }).metadata()));
  const maxPixels = limits.maxInputPixels;
  if (maxPixels !== undefined && sizes.some(({ width = 0, height = 0 }) => width * height > maxPixels)) {
    throw new ConversionError('security_rejected', 'The image declares more pixels than this service accepts.');
  }
  const deep = metadata.depth !== 'uchar';
  const needsCopies = (metadata.hasAlpha && (metadata.format === 'tiff' || deep)) || (metadata.format === 'tiff' && deep);
  return { frames, copies: needsCopies ? await eightBitCopies(path, frames, outputDir, limits, Boolean(metadata.hasAlpha)) : [] };
}

async function eightBitCopies(path: string, frames: number, dir: string, limits: EngineLimits, alpha: boolean): Promise<string[]> {
  const copies: string[] = [];
  for (let page = 0; page < frames; page++) {
    const copy = join(dir, `frame-${page + 1}.png`);
    const frame = sharp(path, { page, limitInputPixels: limits.maxInputPixels ?? true, failOn: 'error' }).timeout({ seconds: Math.max(1, Math.ceil(limits.timeoutMs / 1000)) });
    await (alpha ? frame.ensureAlpha() : frame)
      .toColourspace('srgb')
      .png()
      .toFile(copy)
      .catch((error: Error) => {
        throw new ConversionError('unsupported_or_corrupt_input', 'The image could not be decoded.', false, error.message);
      });
    copies.push(copy);
  }
  return copies;
}
