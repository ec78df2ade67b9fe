import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHARP_DESCRIPTOR, SHARP_WRITES } from './sharp.descriptor.js';
import { nodeHostedRuntime } from '../../../test/support/node-hosted.js';
import { convertStep, expectFailure } from '../../../test/support/test-context.js';
import { psnr } from '../../../testing/pixel-checks.js';
import { run } from '../../../testing/pdf-samples.js';

const dir = mkdtempSync(join(tmpdir(), 'fileshift-sharp-operations-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const runtime = nodeHostedRuntime(SHARP_DESCRIPTOR, 'sharp');

/** A picture decoded by ImageMagick (not sharp), after ImageMagick's own operations if any: 8-bit RGB and its size. */
function magick(path: string, operations: string[] = []): { width: number; height: number; rgb: Buffer } {
  const [width, height] = run('convert', [path, ...operations, '-format', '%w %h', 'info:']).trim().split(' ').map(Number) as [number, number];
  const rgb = execFileSync('convert', [path, ...operations, '-alpha', 'off', '-depth', '8', 'rgb:-'], { maxBuffer: 64 * 1024 * 1024 });
  return { width, height, rgb };
}

/** exiftool's reading of some tags, by name (-n: numbers as stored). */
const exif = (path: string, ...tags: string[]): Record<string, unknown> =>
  (JSON.parse(run('exiftool', ['-j', '-n', ...tags.map((tag) => `-${tag}`), path])) as Array<Record<string, unknown>>)[0]!;

describe('sharp picture operations: crop, rotate, grayscale, with resize (as ImageMagick does them)', () => {
  /** 96 × 64, no symmetry (a gradient each way, a smooth wave): any wrong turn or box shows, and JPEG keeps it well. */
  let png = '';
  let jpg = '';
  beforeAll(async () => {
    const [width, height] = [96, 64];
    const rgb = Buffer.alloc(width * height * 3);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) rgb.set([Math.round((x * 255) / (width - 1)), Math.round((y * 255) / (height - 1)), Math.round(128 + 100 * Math.sin(x / 9) * Math.cos(y / 7))], (y * width + x) * 3);
    }
    png = join(dir, 'picture.png');
    await sharp(rgb, { raw: { width, height, channels: 3 } }).png().toFile(png);
    jpg = join(dir, 'picture.jpg');
    await sharp(png).jpeg({ quality: 95 }).toFile(jpg);
  });

  it('offers every format it writes to itself, with the operations, and every pair the operations', () => {
    const identities = SHARP_DESCRIPTOR.pairs.filter((pair) => pair.from === pair.to);
    expect(identities.map((pair) => pair.from).sort()).toEqual([...SHARP_WRITES].sort());
    expect(identities.every((pair) => !pair.recommended)).toBe(true);
    for (const pair of SHARP_DESCRIPTOR.pairs) expect(pair.options, `${pair.from}→${pair.to}`).toEqual(expect.arrayContaining(['rotate', 'crop', 'grayscale', 'width', 'height', 'fit']));
  });

  it('turns a picture clockwise by 90, 180 and 270 degrees: the pixels ImageMagick -rotate gives', async () => {
    for (const rotate of [90, 180, 270] as const) {
      const [out] = (await convertStep(runtime, { inputPath: png, from: 'png', to: 'png', options: { rotate } }, dir)) as [string];
      const turned = magick(out);
      const reference = magick(png, ['-rotate', String(rotate)]);
      expect([turned.width, turned.height], `${rotate}°`).toEqual(rotate === 180 ? [96, 64] : [64, 96]);
      expect(psnr(turned.rgb, reference.rgb), `${rotate}°: lossless`).toBe(Infinity);
    }
    // A photo turned stays a JPEG and close to ImageMagick's turn of it (one more lossy encoding).
    const [photo] = (await convertStep(runtime, { inputPath: jpg, from: 'jpg', to: 'jpg', options: { rotate: 90 } }, dir)) as [string];
    expect((await sharp(photo).metadata()).format).toBe('jpeg');
    expect(psnr(magick(photo).rgb, magick(jpg, ['-rotate', '90']).rgb)).toBeGreaterThan(35);
  });

  it('crops a box of the picture: its size and its pixels', async () => {
    const crop = { left: 10, top: 5, width: 50, height: 30 };
    const [out] = (await convertStep(runtime, { inputPath: png, from: 'png', to: 'png', options: { crop } }, dir)) as [string];
    const cropped = magick(out);
    expect([cropped.width, cropped.height]).toEqual([50, 30]);
    expect(psnr(cropped.rgb, magick(png, ['-crop', '50x30+10+5', '+repage']).rgb)).toBe(Infinity);
  });

  it('crops in the picture as it is shown: a photo whose EXIF orientation turns it', async () => {
    const oriented = join(dir, 'oriented.jpg');
    await sharp(jpg).toFile(oriented);
    run('exiftool', ['-q', '-n', '-Orientation=6', '-overwrite_original', oriented]);
    expect(exif(oriented, 'Orientation')['Orientation']).toBe(6);
    // Shown 64 × 96 (turned a quarter clockwise): a box 60 high fits only that way up.
    const [out] = (await convertStep(runtime, { inputPath: oriented, from: 'jpg', to: 'png', options: { crop: { left: 4, top: 30, width: 50, height: 60 } } }, dir)) as [string];
    const cropped = magick(out);
    expect([cropped.width, cropped.height]).toEqual([50, 60]);
    expect(psnr(cropped.rgb, magick(oriented, ['-auto-orient', '-crop', '50x60+4+30', '+repage']).rgb)).toBeGreaterThan(40);
  });

  it('crops, then turns, then resizes (the order people expect), whatever the order libvips runs them in', async () => {
    const options = { crop: { left: 20, top: 8, width: 60, height: 40 }, rotate: 90 as const, width: 20 };
    const [out] = (await convertStep(runtime, { inputPath: png, from: 'png', to: 'png', options }, dir)) as [string];
    const done = magick(out);
    // 60 × 40 cropped, 40 × 60 turned, 20 × 30 resized.
    expect([done.width, done.height]).toEqual([20, 30]);
    const expected = magick(png, ['-crop', '60x40+20+8', '+repage', '-rotate', '90', '-resize', '20x']);
    expect(psnr(done.rgb, expected.rgb)).toBeGreaterThan(30);
    // The negative control: the same box taken after the turn is another part of the picture.
    const otherOrder = magick(png, ['-rotate', '90', '-crop', '60x40+20+8', '+repage', '-rotate', '90', '-resize', '20x30!']);
    expect(psnr(done.rgb, otherOrder.rgb)).toBeLessThan(20);
  });

  it('makes a picture grey: every pixel r = g = b, its light and dark where ImageMagick puts them', async () => {
    for (const [input, from] of [[png, 'png'], [jpg, 'jpg']] as const) {
      const [out] = (await convertStep(runtime, { inputPath: input, from, to: from, options: { grayscale: true } }, dir)) as [string];
      const { rgb, width, height } = magick(out);
      expect([width, height]).toEqual([96, 64]);
      const channels = [0, 1, 2].map((c) => Buffer.from(rgb.filter((_, i) => i % 3 === c)));
      expect(channels[0]!.equals(channels[1]!) && channels[1]!.equals(channels[2]!), `${from}: r = g = b`).toBe(true);
      // libvips weighs the colours as Rec. 709 luminance does, in linear light.
      expect(psnr(rgb, magick(input, ['-grayscale', 'Rec709Luminance']).rgb), from).toBeGreaterThan(35);
    }
  });

  it('fails clearly on a crop box outside the picture, naming its size', async () => {
    for (const crop of [{ left: 50, top: 0, width: 50, height: 10 }, { left: 0, top: 60, width: 10, height: 5 }]) {
      const error = await expectFailure(convertStep(runtime, { inputPath: png, from: 'png', to: 'jpg', options: { crop } }, dir), 'unsupported_or_corrupt_input', dir);
      expect(error.message).toContain('96 × 64 pixels');
    }
  });

  it('turns every frame of an animation, keeping its timing and loop', async () => {
    const frame = (background: string) => sharp({ create: { width: 30, height: 20, channels: 3, background } }).png().toBuffer();
    const gif = join(dir, 'frames.gif');
    await sharp([await frame('#ff0000'), await frame('#00ff00'), await frame('#0000ff')], { join: { animated: true } }).gif({ delay: [100, 200, 300], loop: 2 }).toFile(gif);
    for (const to of ['gif', 'webp'] as const) {
      const [out] = (await convertStep(runtime, { inputPath: gif, from: 'gif', to, options: { rotate: 270, crop: { left: 0, top: 0, width: 30, height: 10 } } }, dir)) as [string];
      const meta = await sharp(out, { animated: true }).metadata();
      expect([meta.pages, meta.width, meta.pageHeight, meta.delay, meta.loop], to).toEqual([3, 10, 30, [100, 200, 300], 2]);
    }
    // ImageMagick's reading of the GIF: each frame turned (10 × 30), in order, each of its colour.
    const [out] = (await convertStep(runtime, { inputPath: gif, from: 'gif', to: 'gif', options: { rotate: 90 } }, dir)) as [string];
    expect(run('identify', ['-format', '%w×%h %T|', out])).toBe('20×30 10|20×30 20|20×30 30|');
    const colour = '%[fx:round(255*p{5,5}.r)],%[fx:round(255*p{5,5}.g)],%[fx:round(255*p{5,5}.b)] ';
    expect(run('convert', [out, '-coalesce', '-format', colour, 'info:']).trim().split(' ')).toEqual(['255,0,0', '0,255,0', '0,0,255']);
  });

  it('keeps the colour profile (a Display P3 photo stays P3, its pixels untouched) and drops the other metadata', async () => {
    const p3 = join(dir, 'p3.png');
    await sharp(png).withIccProfile('p3').png().toFile(p3);
    run('exiftool', ['-q', '-GPSLatitude=48.85', '-GPSLatitudeRef=N', '-Artist=Someone', '-overwrite_original', p3]);
    const before = exif(p3, 'ICC_Profile:ProfileDescription', 'GPSLatitude', 'Artist');
    expect(before).toMatchObject({ ProfileDescription: expect.stringMatching(/P3/), Artist: 'Someone' });
    for (const to of ['png', 'jpg', 'webp', 'tiff'] as const) {
      const [out] = (await convertStep(runtime, { inputPath: p3, from: 'png', to, options: { rotate: 180 } }, dir)) as [string];
      const after = exif(out, 'ICC_Profile:ProfileDescription', 'GPSLatitude', 'Artist');
      expect(after, to).toEqual({ SourceFile: out, ProfileDescription: before['ProfileDescription'] });
      // Not converted to sRGB (that would give about 23 dB here): the values are the source's, turned.
      expect(psnr(magick(out).rgb, magick(p3, ['-rotate', '180']).rgb), to).toBeGreaterThan(to === 'png' || to === 'tiff' ? 1000 : 35);
    }
    // Grey is not P3 any more: converted to sRGB with the profile, then made grey, and no profile kept.
    const [grey] = (await convertStep(runtime, { inputPath: p3, from: 'png', to: 'png', options: { grayscale: true } }, dir)) as [string];
    expect(exif(grey, 'ICC_Profile:ProfileDescription')['ProfileDescription']).toBeUndefined();
  });
});
