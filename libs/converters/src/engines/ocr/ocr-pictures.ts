import { join } from 'node:path';
import sharp from 'sharp';
import { ConversionError } from '../../platform/conversion-error.js';
import type { EngineLimits } from '../../platform/engine-descriptor.js';

/** The pictures tesseract is to read for an image: its frames, and copies where it needs them. */
export interface OcrPictures {
  frames: number;
  /** Empty: the input as it is. */
  copies: string[];
}

/** Pictures tesseract reads well as they are: one 8-bit frame, no transparency, upright, in sRGB or grey. */
const AS_THEY_ARE = new Set(['jpeg', 'png']);

/**
 * In the Node host: the pictures tesseract is to read for an image, checked by sharp from its headers first — frames
 * past `maxPages` and pixels past `maxInputPixels` are refused before anything is decoded. A plain JPEG or PNG is read
 * as it is (no copies); anything else (transparency, which tesseract would see as black; a camera's orientation tag;
 * CMYK; 16 bits; TIFF and WebP frames) becomes one 8-bit sRGB PNG per frame, upright and on white, its resolution kept.
 */
export async function ocrPictures(path: string, outputDir: string, limits: EngineLimits): Promise<OcrPictures> {
  const metadata = await sharp(path)
    .metadata()
    .catch((error: Error) => {
      throw new ConversionError('unsupported_or_corrupt_input', 'The input could not be read as a picture.', false, error.message);
    });
  const frames = metadata.pages ?? 1;
  if (limits.maxPages !== undefined && frames > limits.maxPages) {
    throw new ConversionError('file_too_large', `The image has ${frames} pages; OCR reads at most ${limits.maxPages} pages at a time.`);
  }
  const maxPixels = limits.maxInputPixels;
  if (maxPixels !== undefined && (metadata.width ?? 0) * (metadata.pageHeight ?? metadata.height ?? 0) > maxPixels) {
    throw new ConversionError('file_too_large', `The image has more than ${maxPixels / 1_000_000} million pixels, more than OCR reads.`);
  }
  const plain = frames === 1 && AS_THEY_ARE.has(metadata.format ?? '') && !metadata.hasAlpha && metadata.depth === 'uchar' && (metadata.orientation ?? 1) === 1 && metadata.space !== 'cmyk';
  if (plain) return { frames, copies: [] };
  const copies: string[] = [];
  for (let page = 0; page < frames; page++) {
    const copy = join(outputDir, `page-${page + 1}.png`);
    const frame = sharp(path, { page, limitInputPixels: maxPixels ?? true, failOn: 'error' })
      .timeout({ seconds: Math.max(1, Math.ceil(limits.timeoutMs / 1000)) })
      .rotate()
      .flatten({ background: '#ffffff' })
      .toColourspace('srgb');
    // Tesseract sizes its reading by the resolution; without one it estimates it from the text.
    await (metadata.density ? frame.withMetadata({ density: metadata.density }) : frame)
      .png()
      .toFile(copy)
      .catch((error: Error) => {
        throw new ConversionError('unsupported_or_corrupt_input', 'The picture could not be decoded.', false, error.message);
      });
    copies.push(copy);
  }
  return { frames, copies };
}
