import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHARP_DESCRIPTOR } from './sharp.descriptor.js';
import { nodeHostedRuntime } from '../../../test/support/node-hosted.js';
import { convertStep, expectFailure, testContext } from '../../../test/support/test-context.js';

const dir = mkdtempSync(join(tmpdir(), 'fileshift-sharp-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const runtime = nodeHostedRuntime(SHARP_DESCRIPTOR, 'sharp');
/** sharp's metadata names, as our ids. */
const asId = (format?: string) => (format === 'jpeg' ? 'jpg' : format === 'heif' ? 'avif' : format);
const SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="80"><rect width="120" height="80" fill="#3366cc"/></svg>';

describe('SharpImageRuntime', () => {
  const inputs = new Map<string, string>();
  beforeAll(async () => {
    const base = sharp({ create: { width: 120, height: 80, channels: 3, background: '#3366cc' } });
    for (const [id, format] of [['jpg', 'jpeg'], ['png', 'png'], ['webp', 'webp'], ['tiff', 'tiff'], ['gif', 'gif']] as const) {
      const path = join(dir, `in.${id}`);
      await base.clone().toFormat(format).toFile(path);
      inputs.set(id, path);
    }
    const avif = join(dir, 'in.avif');
    await base.clone().heif({ compression: 'av1' }).toFile(avif);
    inputs.set('avif', avif);
    const svg = join(dir, 'in.svg');
    writeFileSync(svg, SVG);
    inputs.set('svg', svg);
  });

  it('converts every pair it offers, keeping the dimensions', async () => {
    const pairs = SHARP_DESCRIPTOR.pairs;
    // Every read format to every written one, each written format to itself included (an operation: jpg → jpg turned).
    expect(pairs.length).toBe(7 * 6);
    for (const { from, to } of pairs) {
      const [out] = await convertStep(runtime, { inputPath: inputs.get(from)!, from, to }, dir);
      const meta = await sharp(out!).metadata();
      expect(asId(meta.format), `${from}→${to}`).toBe(to);
      if (to === 'avif') expect(meta.compression, `${from}→avif`).toBe('av1');
      expect([meta.width, meta.height], `${from}→${to}`).toEqual([120, 80]);
    }
  });

  it('writes TIFF losslessly: every pixel of a noisy picture comes back, read by ImageMagick', async () => {
    const noise = Buffer.from(Array.from({ length: 64 * 48 * 3 }, (_, index) => (index * 7919) % 251));
    const png = join(dir, 'noise.png');
    await sharp(noise, { raw: { width: 64, height: 48, channels: 3 } }).png().toFile(png);
    const [tiff] = await convertStep(runtime, { inputPath: png, from: 'png', to: 'tiff' }, dir);
    const decoded = execFileSync('convert', [tiff!, '-depth', '8', 'rgb:-'], { maxBuffer: 1024 * 1024 });
    expect(decoded.equals(noise)).toBe(true);
    expect(execFileSync('identify', ['-format', '%C', tiff!], { encoding: 'utf8' })).toMatch(/Zip/i);
  });

  it('honours quality, width, height and fit', async () => {
    const [small] = await convertStep(runtime, { inputPath: inputs.get('png')!, from: 'png', to: 'jpg', options: { width: 60 } }, dir);
    expect(await sharp(small!).metadata()).toMatchObject({ width: 60, height: 40 });
    const [filled] = await convertStep(runtime, { inputPath: inputs.get('png')!, from: 'png', to: 'webp', options: { width: 50, height: 50, fit: 'fill' } }, dir);
    expect(await sharp(filled!).metadata()).toMatchObject({ width: 50, height: 50 });
    const noisy = join(dir, 'noisy.png');
    await sharp({ create: { width: 200, height: 200, channels: 3, noise: { type: 'gaussian', mean: 128, sigma: 60 }, background: '#000' } }).png().toFile(noisy);
    const [low] = await convertStep(runtime, { inputPath: noisy, from: 'png', to: 'jpg', options: { quality: 10 } }, dir);
    const [high] = await convertStep(runtime, { inputPath: noisy, from: 'png', to: 'jpg', options: { quality: 95 } }, dir);
    expect(statSync(low!).size).toBeLessThan(statSync(high!).size / 2);
  });

  it('never offers svg as an output and refuses to write it', async () => {
    expect(SHARP_DESCRIPTOR.pairs.some((p) => p.to === 'svg')).toBe(false);
    await expectFailure(convertStep(runtime, { inputPath: inputs.get('png')!, from: 'png', to: 'svg' }, dir), 'unsupported_output_format', dir);
  });

  it('keeps the frames of an animated gif when writing webp', async () => {
    const frames = join(dir, 'anim.gif');
    const frame = (background: string) => sharp({ create: { width: 20, height: 20, channels: 3, background } }).png().toBuffer();
    await sharp([await frame('#ff0000'), await frame('#00ff00'), await frame('#0000ff')], { join: { animated: true } }).gif().toFile(frames);
    expect((await sharp(frames).metadata()).pages).toBe(3);
    const [out] = await convertStep(runtime, { inputPath: frames, from: 'gif', to: 'webp' }, dir);
    expect((await sharp(out!).metadata()).pages).toBe(3);
  });

  it('does not let an svg pull in files next to it, and draws the same picture given inline (what a leak would look like)', async () => {
    const drawing = (href: string) => `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="120" height="80"><image href="${href}" xlink:href="${href}" width="120" height="80"/></svg>`;
    const alphaOf = async (svgText: string, name: string) => {
      const svg = join(dir, name);
      writeFileSync(svg, svgText);
      // The conversion itself must succeed: a failed one would draw nothing too.
      const [out] = await convertStep(runtime, { inputPath: svg, from: 'svg', to: 'png' }, dir);
      const { data, info } = await sharp(out!).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
      expect([info.width, info.height]).toEqual([120, 80]);
      return data.filter((_, i) => i % 4 === 3);
    };
    expect((await alphaOf(drawing('in.png'), 'peek.svg')).every((alpha) => alpha === 0), 'nothing of the neighbouring png drawn').toBe(true);
    const inline = await alphaOf(drawing(`data:image/png;base64,${readFileSync(inputs.get('png')!).toString('base64')}`), 'inline.svg');
    expect(inline.every((alpha) => alpha === 255), 'the picture given inline drawn whole').toBe(true);
  });

  it('reports corrupt input as unsupported_or_corrupt_input without leaking the path', async () => {
    const corrupt = join(dir, 'corrupt.png');
    writeFileSync(corrupt, Buffer.from('89504e470d0a1a0a00000000deadbeef', 'hex'));
    const error = await expectFailure(convertStep(runtime, { inputPath: corrupt, from: 'png', to: 'webp' }, dir), 'unsupported_or_corrupt_input', dir);
    expect(error.retryable).toBe(false);
  });

  it('rejects a decompression bomb (PNG header declaring 50000x50000) before decoding it', async () => {
    const bomb = join(dir, 'bomb.png');
    writeFileSync(bomb, pngDeclaring(50_000, 50_000));
    await expectFailure(convertStep(runtime, { inputPath: bomb, from: 'png', to: 'webp' }, dir), 'security_rejected', dir);
  });

  it('refuses an output past the size cap and removes it', async () => {
    const capped = join(dir, 'capped');
    mkdirSync(capped);
    await expectFailure(
      runtime.convert({ inputPath: inputs.get('png')!, outputDir: capped, from: 'png', to: 'tiff', options: {} }, { ...testContext(runtime, dir, { maxOutputBytes: 100 }) }),
      'file_too_large',
      dir,
    );
    expect(readdirSync(capped)).toEqual([]);
  });
});

/** A tiny PNG whose header declares huge dimensions: a decompression bomb as the decoder sees it. */
function pngDeclaring(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 0, 0, 0, 0], 8);
  return Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(Buffer.alloc(1024))), chunk('IEND', Buffer.alloc(0))]);
}
