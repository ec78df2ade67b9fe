import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';

// Raster samples of the formats sharp does not read, from producers other than the engine: ffmpeg's image
// encoders where it has one, the system's ImageMagick (with Debian's own policy) for the rest. Each is the sample
// picture below, so that the conversion matrix can compare the pixels of every output with its source's.

const FFMPEG_ENCODERS: Record<string, string[]> = {
  bmp: ['-c:v', 'bmp', '-pix_fmt', 'bgra'],
  tga: ['-c:v', 'targa', '-pix_fmt', 'bgra'],
  ppm: ['-c:v', 'ppm'],
  pgm: ['-c:v', 'pgm', '-pix_fmt', 'gray'],
  pbm: ['-c:v', 'pbm', '-pix_fmt', 'monob'],
  pcx: ['-c:v', 'pcx', '-pix_fmt', 'rgb24'],
  jp2: ['-c:v', 'jpeg2000', '-f', 'image2'],
};
const IMAGEMAGICK_FORMATS: Record<string, string> = { ico: 'ICO', psd: 'PSD', heic: 'HEIC', xpm: 'XPM' };
/** The formats writeRasterSamples writes. */
export const RASTER_SAMPLE_FORMATS: readonly string[] = [...Object.keys(FFMPEG_ENCODERS), ...Object.keys(IMAGEMAGICK_FORMATS)];

/**
 * A 96×64 picture with something to lose: a colour gradient, a dark bar (a page's ink), and a transparent corner,
 * as raw RGBA (the samples sharp writes start from it; the matrix reads them back with another decoder).
 */
export function samplePicture(): { width: number; height: number; rgba: Buffer } {
  const width = 96;
  const height = 64;
  const rgba = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const at = (y * width + x) * 4;
      const bar = y >= 40 && y < 48 && x >= 8 && x < 72;
      rgba[at] = bar ? 20 : Math.round((x / (width - 1)) * 230 + 20);
      rgba[at + 1] = bar ? 20 : Math.round((y / (height - 1)) * 200 + 30);
      rgba[at + 2] = bar ? 20 : 140;
      rgba[at + 3] = x >= 72 && y < 24 ? 0 : 255;
    }
  }
  return { width, height, rgba };
}

/**
 * One sample of every raster format sharp does not read, by format id: the sample picture (96×64, its transparent
 * corner where the format holds transparency), or the picture given, written by ffmpeg's encoders and by ImageMagick
 * as `<name>.<format>`.
 */
export function writeRasterSamples(dir: string, picture = samplePicture(), name = 'raster'): Map<string, string> {
  const samples = new Map<string, string>();
  const { width, height, rgba } = picture;
  const raw = join(dir, `${name}-picture.rgba`);
  writeFileSync(raw, rgba);
  for (const [format, encoder] of Object.entries(FFMPEG_ENCODERS)) {
    const path = join(dir, `${name}.${format}`);
    execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'rawvideo', '-pix_fmt', 'rgba', '-s', `${width}x${height}`, '-i', raw, '-frames:v', '1', ...encoder, '-update', '1', path]);
    samples.set(format, path);
  }
  for (const [format, coder] of Object.entries(IMAGEMAGICK_FORMATS)) {
    const path = join(dir, `${name}.${format}`);
    execFileSync('convert', ['-size', `${width}x${height}`, '-depth', '8', `rgba:${raw}`, `${coder}:${path}`]);
    samples.set(format, path);
  }
  rmSync(raw);
  return samples;
}

/** ffprobe's decoder of each raster output (libmagic for icons, which ffmpeg does not read). */
const DECODED_AS: Record<string, string> = { bmp: 'bmp', tga: 'targa', ppm: 'ppm', pgm: 'pgm', pbm: 'pbm', pcx: 'pcx', jp2: 'jpeg2000' };
export const RASTER_TARGETS: ReadonlySet<string> = new Set([...Object.keys(DECODED_AS), 'ico']);

/** Checks a raster output with a decoder that is not the engine's: ffprobe's image decoders (its type, and that it is not blank), or libmagic for ICO. */
export function expectRaster(path: string, format: string): void {
  if (format === 'ico') {
    expect(execFileSync('file', ['--brief', path], { encoding: 'utf8' })).toMatch(/MS Windows icon resource/);
    return;
  }
  const [codec, width] = execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'stream=codec_name,width', '-of', 'csv=p=0', path], { encoding: 'utf8' }).trim().split(',');
  expect(codec).toBe(DECODED_AS[format]);
  expect(Number(width)).toBeGreaterThan(0);
  // The picture survived: no sample is blank (a page's text is ink too), so an output that decodes to white (a threshold, a
  // lost alpha) lost it.
  const grey = execFileSync('ffmpeg', ['-v', 'error', '-i', path, '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'gray', '-'], { maxBuffer: 64 * 1024 * 1024 });
  const inked = grey.filter((value) => value < 240).length;
  expect(inked / grey.length, `${format}: share of pixels that are not white`).toBeGreaterThan(0.001);
}
