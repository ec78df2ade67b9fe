import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMG2PDF_DESCRIPTOR } from './img2pdf.descriptor.js';
import { Img2pdfRuntime } from './img2pdf.runtime.js';
import { processesWith, until } from '../../../test/support/processes.js';
import { convertStep, expectFailure, testContext, leftovers } from '../../../test/support/test-context.js';
import { photoJpeg, reportMissingEngine, run } from '../../../testing/pdf-samples.js';
import { pdfPages } from '../../../testing/document-checks.js';

const workRoot = mkdtempSync(join(tmpdir(), 'fileshift-img2pdf-work-'));
// The test's files live in the engine's scratch directory, as a job's input does: only it is bound into the sandbox.
const dir = mkdtempSync(join(workRoot, 'files-'));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(workRoot, { recursive: true, force: true });
});
const work = { workDir: workRoot };

/** The images of a PDF as poppler's pdfimages lists them. */
const images = (pdf: string) =>
  run('pdfimages', ['-list', pdf])
    .split('\n')
    .slice(2)
    .filter((line) => line.trim())
    .map((line) => line.trim().split(/\s+/))
    .map((c) => ({ page: Number(c[0]), type: c[2], width: Number(c[3]), height: Number(c[4]), bpc: Number(c[7]), enc: c[8] }));
/** The image streams of a PDF extracted by pdfimages (-all: JPEG as it is stored, the others as PNG). */
const extracted = (pdf: string) => {
  const out = mkdtempSync(join(dir, 'extracted-'));
  run('pdfimages', ['-all', pdf, join(out, 'img')]);
  return readdirSync(out).sort().map((name) => join(out, name));
};
const pixels = async (path: string) => sharp(path).raw().toBuffer();

describe('Img2pdfRuntime (Debian package img2pdf)', () => {
  const runtime = new Img2pdfRuntime();
  let jpg = '';
  let png = '';
  let tiff = '';
  let frames = '';

  beforeAll(async () => {
    const probe = await runtime.probe();
    if (!probe.available) {
      reportMissingEngine('img2pdf', probe.problem, IMG2PDF_DESCRIPTOR.debianPackages);
      return;
    }
    jpg = await photoJpeg(dir, 'photo', 640, 480, 150);
    png = join(dir, 'drawing.png');
    await sharp(jpg).resize(320, 240).png().toFile(png);
    tiff = join(dir, 'scan.tiff');
    await sharp(jpg).resize(200, 150).tiff({ compression: 'lzw' }).toFile(tiff);
    frames = join(dir, 'frames.tiff');
    const colours = await Promise.all(['#c00', '#0c0', '#00c'].map((background) => sharp({ create: { width: 120, height: 80, channels: 3, background } }).png().toBuffer()));
    await sharp(colours, { join: { animated: true } }).tiff().toFile(frames);
  });

  it('is installed on this machine and says which version', async () => {
    const probe = await runtime.probe();
    expect(probe.available).toBe(true);
    expect(probe.version).toMatch(/^img2pdf \d+\.\d+/);
  });

  it('names the Debian package when img2pdf is missing', async () => {
    const probe = await new Img2pdfRuntime(undefined, 'img2pdf-not-installed').probe();
    expect(probe.available).toBe(false);
    expect(probe.problem).toContain('install the Debian package img2pdf');
  });

  it('converts every pair of its descriptor', async () => {
    const inputs: Record<string, string> = { jpg, png, tiff };
    for (const pair of IMG2PDF_DESCRIPTOR.pairs) {
      const [out] = (await convertStep(runtime, { inputPath: inputs[pair.from]!, from: pair.from, to: pair.to }, dir, work)) as [string];
      expect(pdfPages(out), `${pair.from} → ${pair.to}`).toBe(1);
    }
  });

  it('puts a JPEG into a PDF page as it is: the same bytes, not re-encoded', async () => {
    const progress: number[] = [];
    const [out] = (await convertStep(runtime, { inputPath: jpg, from: 'jpg', to: 'pdf' }, dir, { ...work, onProgress: (p) => progress.push(p) })) as [string];
    expect(pdfPages(out)).toBe(1);
    expect(images(out)).toEqual([{ page: 1, type: 'image', width: 640, height: 480, bpc: 8, enc: 'jpeg' }]);
    const [stored] = extracted(out) as [string];
    expect(readFileSync(stored).equals(readFileSync(jpg))).toBe(true);
    // 640 px at 150 dpi: a page of 307.2 pt.
    expect(run('pdfinfo', [out])).toMatch(/Page size:\s+307\.2 x 230\.4 pts/);
    expect(progress.at(-1)).toBe(100);
    expect(leftovers(workRoot, dir)).toEqual([]);
  });

  it('puts PNG and TIFF pixels into a PDF losslessly', async () => {
    for (const [input, from] of [[png, 'png'], [tiff, 'tiff']] as const) {
      const [out] = (await convertStep(runtime, { inputPath: input, from, to: 'pdf' }, dir, work)) as [string];
      expect(pdfPages(out)).toBe(1);
      const [stored] = extracted(out) as [string];
      expect((await pixels(stored)).equals(await pixels(input))).toBe(true);
    }
  });

  it('makes a page per frame of a multi-page TIFF', async () => {
    const [out] = (await convertStep(runtime, { inputPath: frames, from: 'tiff', to: 'pdf' }, dir, work)) as [string];
    expect(pdfPages(out)).toBe(3);
    expect(images(out).map((image) => `${image.page}:${image.width}x${image.height}`)).toEqual(['1:120x80', '2:120x80', '3:120x80']);
  });

  describe('transparency', () => {
    const translucent = { create: { width: 90, height: 60, channels: 4 as const, background: { r: 200, g: 30, b: 30, alpha: 0.5 } } };

    it('keeps the alpha of an 8-bit PNG as a soft mask (img2pdf itself)', async () => {
      const input = join(dir, 'alpha8.png');
      await sharp(translucent).png().toFile(input);
      const [out] = (await convertStep(runtime, { inputPath: input, from: 'png', to: 'pdf' }, dir, work)) as [string];
      expect(images(out).map((image) => image.type)).toEqual(['image', 'smask']);
    });

    it('re-encodes a 16-bit PNG with alpha and a TIFF with alpha as 8-bit RGBA first, keeping the alpha', async () => {
      const deep = join(dir, 'alpha16.png');
      await sharp(translucent).toColourspace('rgb16').png().toFile(deep);
      expect((await sharp(deep).metadata()).depth).toBe('ushort');
      // img2pdf alone refuses both.
      expect(() => run('img2pdf', ['-o', join(dir, 'refused.pdf'), deep])).toThrow(/Refusing to work with multiple >8bit channels/);
      const tiffAlpha = join(dir, 'alpha.tiff');
      await sharp(translucent).tiff({ compression: 'lzw' }).toFile(tiffAlpha);
      expect((await sharp(tiffAlpha).metadata()).hasAlpha).toBe(true);
      expect(() => run('img2pdf', ['-o', join(dir, 'refused.pdf'), tiffAlpha])).toThrow(/alpha/);

      for (const [input, from] of [[deep, 'png'], [tiffAlpha, 'tiff']] as const) {
        const [out] = (await convertStep(runtime, { inputPath: input, from, to: 'pdf' }, dir, work)) as [string];
        expect(images(out).map(({ type, width, height, bpc }) => `${type} ${width}x${height} ${bpc}`)).toEqual(['image 90x60 8', 'smask 90x60 8']);
      }
      expect(leftovers(workRoot, dir)).toEqual([]);
    });
  });

  it('takes a TIFF of 16 bits per sample (img2pdf alone refuses it) as 8 bits per sample, without a soft mask', async () => {
    const deep = join(dir, 'deep16.tiff');
    await sharp({ create: { width: 90, height: 60, channels: 3, background: { r: 200, g: 30, b: 30 } } }).toColourspace('rgb16').tiff({ compression: 'deflate' }).toFile(deep);
    expect(() => run('img2pdf', ['-o', join(dir, 'refused.pdf'), deep])).toThrow(/more than 8 bits/);
    const [out] = (await convertStep(runtime, { inputPath: deep, from: 'tiff', to: 'pdf' }, dir, work)) as [string];
    expect(images(out).map(({ type, width, height, bpc }) => `${type} ${width}x${height} ${bpc}`)).toEqual(['image 90x60 8']);
    expect(leftovers(workRoot, dir)).toEqual([]);
  });

  describe('limits and failures', () => {
    it('refuses an image past the pixel limit from its header, before img2pdf runs', async () => {
      const error = await expectFailure(convertStep(runtime, { inputPath: jpg, from: 'jpg', to: 'pdf' }, dir, testContext(runtime, workRoot, { maxInputPixels: 640 * 480 - 1 })), 'security_rejected', dir);
      expect(error.message).toMatch(/more pixels/);
    });

    it('refuses a TIFF with more frames than the page limit', async () => {
      const error = await expectFailure(convertStep(runtime, { inputPath: frames, from: 'tiff', to: 'pdf' }, dir, testContext(runtime, workRoot, { maxPages: 2 })), 'file_too_large', dir);
      expect(error.message).toContain('3 frames');
    });

    it('holds the output to the output cap', async () => {
      await expectFailure(convertStep(runtime, { inputPath: jpg, from: 'jpg', to: 'pdf' }, dir, testContext(runtime, workRoot, { maxOutputBytes: 1_000 })), 'file_too_large', dir);
    });

    it('reports what is not a jpg, png or tiff image as unsupported_or_corrupt_input', async () => {
      const text = join(dir, 'words.png');
      writeFileSync(text, 'not an image at all');
      const webp = join(dir, 'actually-webp.png');
      await sharp(png).webp().toFile(webp);
      const svg = join(dir, 'drawing-svg.png');
      writeFileSync(svg, `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><image href="file://${jpg}"/></svg>`);
      for (const input of [text, webp, svg]) await expectFailure(convertStep(runtime, { inputPath: input, from: 'png', to: 'pdf' }, dir, work), 'unsupported_or_corrupt_input', dir);
      expect(leftovers(workRoot, dir)).toEqual([]);
    });

    it('treats a hostile file name as a name', async () => {
      const hostile = join(dir, '-a; rm -rf x $(touch pwned) @list.jpg');
      copyFileSync(jpg, hostile);
      const [out] = (await convertStep(runtime, { inputPath: hostile, from: 'jpg', to: 'pdf' }, join(dir, 'hostile out; echo'), work)) as [string];
      expect(pdfPages(out)).toBe(1);
      expect(readdirSync(dir)).not.toContain('pwned');
    });

    it('ends img2pdf at once when the job is cancelled', async () => {
      // A large PNG keeps img2pdf busy long enough to cancel it.
      const large = join(dir, 'large.png');
      await sharp({ create: { width: 6000, height: 6000, channels: 3, background: '#888' } }).png({ compressionLevel: 0 }).toFile(large);
      const controller = new AbortController();
      const outputDir = join(dir, 'cancelled');
      mkdirSync(outputDir);
      const conversion = runtime.convert({ inputPath: large, outputDir, from: 'png', to: 'pdf', options: {} }, { ...testContext(runtime, workRoot), signal: controller.signal });
      await until(() => processesWith(large).length > 0);
      controller.abort();
      await expectFailure(conversion, 'unknown', dir);
      expect(processesWith(large)).toEqual([]);
      expect(leftovers(workRoot, dir)).toEqual([]);
    });

    it('refuses a conversion it does not do', async () => {
      await expectFailure(convertStep(runtime, { inputPath: jpg, from: 'jpg', to: 'png' }, dir, work), 'unsupported_output_format', dir);
      await expectFailure(convertStep(runtime, { inputPath: jpg, from: 'gif', to: 'pdf' }, dir, work), 'unsupported_output_format', dir);
    });
  });
});
