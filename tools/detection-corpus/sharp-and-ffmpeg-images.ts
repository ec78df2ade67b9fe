/** Raster images written by sharp (libvips) and by ffmpeg's image encoders, plus hand-written SVG. */
import { join } from 'node:path';
import sharp from 'sharp';
import { attempt, keep, run, scratch, work } from './corpus-context.js';

const SOURCES = [
  { width: 64, height: 48, background: { r: 200, g: 30, b: 30, alpha: 1 } },
  { width: 320, height: 200, background: { r: 10, g: 120, b: 240, alpha: 0.5 } },
  { width: 17, height: 900, background: { r: 0, g: 0, b: 0, alpha: 1 } },
];

const SVGS = [
  `<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="64" height="48"><rect width="10" height="10"/></svg>\n`,
  `<svg width="100" height="100" viewBox="0 0 100 100" xmlns="http://www.w3.org/2000/svg">\n  <circle cx="50" cy="50" r="40" stroke="green" fill="yellow" />\n</svg>\n`,
  `<?xml version="1.0" standalone="no"?>\n<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">\n<svg version="1.1" xmlns="http://www.w3.org/2000/svg"><text x="1" y="9">hi</text></svg>\n`,
];

/** A busy but reproducible RGBA pattern (sharp's noise generator is random, which made every rerun differ). */
function patternPixels(width: number, height: number, seed: number): Buffer {
  const pixels = Buffer.alloc(width * height * 4);
  for (let i = 0; i < width * height; i++) {
    const x = i % width;
    const y = Math.floor(i / width);
    pixels.writeUInt32BE(((x * 2654435761) ^ (y * 40503) ^ (seed * 97)) >>> 0, i * 4);
    pixels[i * 4 + 3] = seed === 1 ? 128 : 255;
  }
  return pixels;
}

/** The PNG sources (img0..2.png in the scratch directory) are reused by later producers. */
export async function sharpAndFfmpegImages(): Promise<void> {
  for (const [index, source] of SOURCES.entries()) {
    const base = sharp(patternPixels(source.width, source.height, index), { raw: { width: source.width, height: source.height, channels: 4 } });
    const png = join(work, `img${index}.png`);
    await base.clone().png().toFile(png);
    for (const [format, ext] of [['png', 'png'], ['jpg', 'jpg'], ['webp', 'webp'], ['avif', 'avif'], ['tiff', 'tif'], ['gif', 'gif']] as const) {
      await attempt(`sharp ${format}`, async () => {
        const out = join(work, `image-${index}.${ext}`);
        await sharp(png).toFormat(format === 'jpg' ? 'jpeg' : format).toFile(out);
        keep(format, out, 'sharp');
      });
    }
    for (const [format, ext] of [['bmp', 'bmp'], ['tga', 'tga'], ['pcx', 'pcx'], ['ppm', 'ppm'], ['pgm', 'pgm'], ['pbm', 'pbm'], ['xbm', 'xbm'], ['jp2', 'jp2'], ['qoi', 'qoi'], ['sgi', 'sgi'], ['dds', 'dds']] as const) {
      await attempt(`ffmpeg ${format}`, () => {
        const out = `ffimage-${index}.${ext}`;
        const pix = format === 'pbm' || format === 'xbm' ? ['-pix_fmt', 'monow'] : format === 'pgm' ? ['-pix_fmt', 'gray'] : [];
        run('ffmpeg', ['-v', 'error', '-y', '-i', png, ...pix, '-frames:v', '1', '-update', '1', out]);
        keep(format, join(work, out), 'ffmpeg');
      });
    }
    keep('svg', scratch(`drawing-${index}.svg`, SVGS[index]!), 'handwritten');
  }
}
