import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImageMagickRuntime } from './imagemagick.runtime.js';
import { expectRaster, writeRasterSamples } from '../../../testing/raster-samples.js';
import { convertStep, expectFailure, testContext, leftovers } from '../../../test/support/test-context.js';

const workRoot = mkdtempSync(join(tmpdir(), 'fileshift-imagemagick-work-'));
// The test's files live in the engine's scratch directory, as a job's input does: only it is bound into the sandbox.
const dir = mkdtempSync(join(workRoot, 'files-'));
/** Outside any job's scratch directory: where hostile inputs try to write. */
const outside = mkdtempSync(join(tmpdir(), 'fileshift-imagemagick-outside-'));
afterAll(() => {
  for (const path of [dir, workRoot, outside]) rmSync(path, { recursive: true, force: true });
});

describe('ImageMagickRuntime (Debian package imagemagick)', () => {
  const runtime = new ImageMagickRuntime();
  let samples = new Map<string, string>();

  beforeAll(async () => {
    const probe = await runtime.probe();
    if (!probe.available) console.error(`\n*** ENGINE MISSING: ImageMagick (${probe.problem}). Install the Debian package imagemagick; these tests FAIL without it. ***\n`);
    samples = writeRasterSamples(dir);
  });

  it('is installed on this machine', async () => {
    expect((await runtime.probe()).available).toBe(true);
  });

  it('reads every raster format it names into a PNG of the same size', async () => {
    for (const [format, path] of samples) {
      const [png] = (await convertStep(runtime, { inputPath: path, from: format, to: 'png' }, dir, { workDir: workRoot })) as [string];
      const meta = await sharp(png).metadata();
      expect([format, meta.format, meta.width, meta.height]).toEqual([format, 'png', 96, 64]);
    }
    expect(leftovers(workRoot, dir)).toEqual([]);
  });

  it('writes BMP, an icon (at most 256 wide) and JPEG 2000 from a PNG', async () => {
    const big = join(dir, 'big.png');
    await sharp({ create: { width: 600, height: 300, channels: 3, background: '#36c' } }).png().toFile(big);
    for (const to of ['bmp', 'ico', 'jp2']) {
      const [out] = (await convertStep(runtime, { inputPath: big, from: 'png', to }, dir, { workDir: workRoot })) as [string];
      expectRaster(out, to);
    }
    const [icon] = (await convertStep(runtime, { inputPath: big, from: 'png', to: 'ico' }, dir, { workDir: workRoot })) as [string];
    expect(execFileSync('file', ['--brief', icon], { encoding: 'utf8' })).toMatch(/256x/);
  });

  it('refuses an image past the pixel limit before decoding it', async () => {
    await expectFailure(convertStep(runtime, { inputPath: samples.get('bmp')!, from: 'bmp', to: 'png' }, dir, testContext(runtime, workRoot, { maxInputPixels: 100 })), 'security_rejected', dir);
  });

  it('reports a corrupt input as unsupported_or_corrupt_input, without paths', async () => {
    const corrupt = join(dir, 'broken.psd');
    writeFileSync(corrupt, Buffer.concat([Buffer.from('8BPS'), Buffer.alloc(40, 0xff)]));
    await expectFailure(convertStep(runtime, { inputPath: corrupt, from: 'psd', to: 'png' }, dir, { workDir: workRoot }), 'unsupported_or_corrupt_input', dir);
  });
});

/**
 * ImageTragick-style payloads: an MVG drawing and an MSL script that would write a file outside. The system
 * ImageMagick with Debian's own policy draws the MVG when the coder is picked from what the file claims to be (the positive control; its
 * MSL coder aborts on any script in this build, so MSL has no live control here). The runtime names the coder
 * of every file and its policy allows no script coder, so neither is ever interpreted.
 */
describe('hostile images: MSL and MVG payloads', () => {
  const runtime = new ImageMagickRuntime();
  const pwned = join(outside, 'pwned.png');
  let msl = '';
  let mvg = '';

  beforeAll(() => {
    const seed = join(dir, 'seed.png');
    execFileSync('convert', ['-size', '8x8', 'xc:red', `PNG:${seed}`]);
    msl = join(dir, 'payload.msl');
    writeFileSync(msl, `<?xml version="1.0" encoding="UTF-8"?>\n<image><read filename="${seed}"/><write filename="${pwned}"/></image>\n`);
    mvg = join(dir, 'payload.mvg');
    writeFileSync(mvg, 'push graphic-context\nviewbox 0 0 16 16\nfill red\nrectangle 0,0 16,16\npop graphic-context\n');
  });

  it('positive control: the system ImageMagick draws the MVG', () => {
    const drawn = join(dir, 'control-mvg.png');
    execFileSync('convert', [`MVG:${mvg}`, `PNG:${drawn}`]);
    expect(existsSync(drawn)).toBe(true);
  });

  it('the runtime refuses both, whatever format they claim, and writes nothing outside', async () => {
    for (const payload of [msl, mvg]) {
      for (const from of ['png', 'bmp', 'xpm', 'tga']) {
        await expectFailure(convertStep(runtime, { inputPath: payload, from, to: from === 'png' ? 'bmp' : 'png' }, dir, { workDir: workRoot }), 'unsupported_or_corrupt_input', dir);
      }
    }
    expect(existsSync(pwned)).toBe(false);
    expect(readdirSync(outside)).toEqual([]);
  });
});
