import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Pixels read by decoders that are not the service's: ffmpeg's image decoders; libheif's heif-convert for AVIF and
// HEIC (ffmpeg skips AVIF's alpha picture, ImageMagick 6 reads neither's transparency); ImageMagick's command line (as
// Debian ships it, outside the engine) for what ffmpeg does not read.

/** A decoded picture: 8-bit RGBA, row by row. */
export interface Pixels {
  width: number;
  height: number;
  rgba: Buffer;
}

const MAX_BUFFER = 256 * 1024 * 1024;
const HEIF = /\.(avif|heic|heif)$/i;
/** Formats ffmpeg misreads: sharp's TIFF with transparency, ImageMagick's XPM. */
const IMAGEMAGICK_READS = /\.(tiff?|xpm)$/i;

/** The first frame of `path` as RGBA: libheif's decoder for HEIF files, ffmpeg's where it has one, else ImageMagick's. */
export function decodePixels(path: string): Pixels {
  if (HEIF.test(path)) {
    const dir = mkdtempSync(join(tmpdir(), 'fileshift-heif-'));
    try {
      execFileSync('heif-convert', [path, join(dir, 'picture.png')], { stdio: 'ignore' });
      return decodePixels(join(dir, 'picture.png'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  try {
    if (IMAGEMAGICK_READS.test(path)) throw new Error('read by ImageMagick');
    const [width, height] = execFileSync('ffprobe', ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=width,height', '-of', 'csv=p=0', path], { encoding: 'utf8' })
      .trim()
      .split(',')
      .map(Number);
    if (!width || !height) throw new Error('ffprobe found no picture');
    const rgba = execFileSync('ffmpeg', ['-v', 'error', '-i', path, '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'rgba', '-'], { maxBuffer: MAX_BUFFER });
    if (rgba.length !== width * height * 4) throw new Error('ffmpeg decoded a frame of another size');
    return { width, height, rgba };
  } catch {
    const [width, height] = execFileSync('identify', ['-format', '%w %h\n', `${path}[0]`], { encoding: 'utf8' }).trim().split(/\s+/).map(Number);
    const rgba = execFileSync('convert', [`${path}[0]`, '-depth', '8', 'rgba:-'], { maxBuffer: MAX_BUFFER });
    return { width: width!, height: height!, rgba };
  }
}

/** The frame of a video `seconds` in, as ffmpeg decodes it (seeking by decoding, frame-exact). */
export function videoFrame(path: string, seconds: number): Pixels {
  const dir = mkdtempSync(join(tmpdir(), 'fileshift-frame-'));
  try {
    execFileSync('ffmpeg', ['-v', 'error', '-i', path, '-ss', seconds.toFixed(3), '-frames:v', '1', '-c:v', 'png', join(dir, 'frame.png')]);
    return decodePixels(join(dir, 'frame.png'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The picture laid on white, as 8-bit RGB: what a viewer shows of its transparent parts. */
export function onWhite({ rgba }: Pixels): Uint8Array {
  const rgb = new Uint8Array((rgba.length / 4) * 3);
  for (let i = 0, o = 0; i < rgba.length; i += 4, o += 3) {
    const alpha = rgba[i + 3]! / 255;
    for (let c = 0; c < 3; c++) rgb[o + c] = Math.round(rgba[i + c]! * alpha + 255 * (1 - alpha));
  }
  return rgb;
}

/** Luma (Rec. 709, sRGB's) of each pixel laid on white: the picture as a greyscale target holds it. */
export function greyOnWhite(pixels: Pixels): Uint8Array {
  const rgb = onWhite(pixels);
  const grey = new Uint8Array(rgb.length / 3);
  for (let i = 0; i < grey.length; i++) grey[i] = Math.round(0.2126 * rgb[i * 3]! + 0.7152 * rgb[i * 3 + 1]! + 0.0722 * rgb[i * 3 + 2]!);
  return grey;
}

/** The alpha channel alone. */
export const alphaOf = ({ rgba }: Pixels): Uint8Array => Uint8Array.from({ length: rgba.length / 4 }, (_, i) => rgba[i * 4 + 3]!);

/** Peak signal-to-noise ratio of two samples of equal length, in dB (Infinity when equal). */
export function psnr(a: Uint8Array, b: Uint8Array): number {
  if (a.length !== b.length) throw new Error(`psnr of ${a.length} and ${b.length} samples`);
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += (a[i]! - b[i]!) ** 2;
  return sum === 0 ? Infinity : 10 * Math.log10((255 * 255) / (sum / a.length));
}

/** Every pixel is black or white (a one-bit picture), read on white. */
export const isOneBit = (pixels: Pixels): boolean => greyOnWhite(pixels).every((value) => value < 16 || value > 239);
