import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { expect } from 'vitest';

// Raster samples of the formats sharp does not read, from producers other than the engine: ffmpeg's image
// encoders where it has one, the system's ImageMagick (with Debian's own policy) for the rest.

const FFMPEG_ENCODERS: Record<string, string[]> = {
  bmp: ['-c:v', 'bmp'],
  tga: ['-c:v', 'targa'],
  ppm: ['-c:v', 'ppm'],
  pgm: ['-c:v', 'pgm', '-pix_fmt', 'gray'],
  pbm: ['-c:v', 'pbm', '-pix_fmt', 'monob'],
  pcx: ['-c:v', 'pcx', '-pix_fmt', 'rgb24'],
  jp2: ['-c:v', 'jpeg2000', '-f', 'image2'],
};
const IMAGEMAGICK_FORMATS: Record<string, string> = { ico: 'ICO', psd: 'PSD', heic: 'HEIC', xpm: 'XPM' };

/** One 48×32 sample of every raster format sharp does not read, by format id. */
export function writeRasterSamples(dir: string): Map<string, string> {
  const samples = new Map<string, string>();
  for (const [format, encoder] of Object.entries(FFMPEG_ENCODERS)) {
    const path = join(dir, `raster.${format}`);
    execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=48x32:rate=1:duration=1', '-frames:v', '1', ...encoder, '-update', '1', path]);
    samples.set(format, path);
  }
  for (const [format, coder] of Object.entries(IMAGEMAGICK_FORMATS)) {
    const path = join(dir, `raster.${format}`);
    execFileSync('convert', ['-size', '48x32', 'gradient:red-blue', `${coder}:${path}`]);
    samples.set(format, path);
  }
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
