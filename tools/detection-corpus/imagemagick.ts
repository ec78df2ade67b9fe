/** Images written by ImageMagick 6, which lays out headers differently from libvips and ffmpeg. */
import { join } from 'node:path';
import { attempt, keep, run, work } from './corpus-context.js';

// The real IM6 binary: /usr/local/bin/convert on this machine is a stand-in, not ImageMagick.
const CONVERT = '/usr/bin/convert-im6.q16';

/** [format id, output file extension, IM6 output spec prefix, extra options] */
const OUTPUTS: Array<[format: string, ext: string, coder: string, options: string[]]> = [
  ['xpm', 'xpm', 'XPM', ['-colors', '16']],
  ['sgi', 'sgi', 'SGI', []],
  ['sgi', 'rgb', 'SGI', ['-compress', 'RLE']],
  ['sgi', 'bw', 'SGI', ['-colorspace', 'Gray']],
  ['pcx', 'pcx', 'PCX', []],
  ['tga', 'tga', 'TGA', []],
  ['tga', 'tga', 'TGA', ['-compress', 'RLE']],
  ['ico', 'ico', 'ICO', ['-resize', '32x32!']],
  ['psd', 'psd', 'PSD', []],
  ['bmp', 'bmp', 'BMP3', []],
  ['bmp', 'bmp', 'BMP2', []],
  ['bmp', 'bmp', 'BMP', []],
  ['tiff', 'tif', 'TIFF', ['-endian', 'MSB']],
  ['tiff', 'tiff', 'TIFF', ['-endian', 'LSB', '-compress', 'LZW']],
  ['gif', 'gif', 'GIF87', []],
  ['gif', 'gif', 'GIF', ['-colors', '8']],
  ['ps', 'ps', 'PS', []],
  ['ps', 'ps', 'PS2', []],
  ['eps', 'eps', 'EPS', []],
  ['eps', 'epsf', 'EPSF', []],
  ['pdf', 'pdf', 'PDF', []],
  ['jp2', 'jp2', 'JP2', []],
  ['jp2', 'j2k', 'J2K', []],
  ['ppm', 'ppm', 'PPM', ['-compress', 'None']],
  ['ppm', 'ppm', 'PPM', []],
  ['ppm', 'pnm', 'PNM', []],
  ['pgm', 'pgm', 'PGM', ['-compress', 'None']],
  ['pgm', 'pgm', 'PGM', []],
  ['pbm', 'pbm', 'PBM', ['-compress', 'None']],
  ['pbm', 'pbm', 'PBM', []],
  ['hdr', 'hdr', 'HDR', []],
  ['dds', 'dds', 'DDS', []],
  ['xbm', 'xbm', 'XBM', []],
  ['webp', 'webp', 'WEBP', []],
  ['png', 'png', 'PNG8', []],
  ['jpg', 'jpg', 'JPEG', ['-quality', '50', '-interlace', 'Plane']],
  ['svg', 'svg', 'SVG', ['-resize', '8x8!']],
];

export function imageMagick(): void {
  for (const index of [0, 1, 2]) {
    const source = join(work, `img${index}.png`);
    for (const [variant, [format, ext, coder, options]] of OUTPUTS.entries()) {
      attempt(`imagemagick ${coder}`, () => {
        const out = `im6-${index}-${variant}.${ext}`;
        run(CONVERT, [source, '-resize', '64x64>', ...options, `${coder}:${join(work, out)}`]);
        keep(format, join(work, out), 'imagemagick');
      });
    }
  }
}
