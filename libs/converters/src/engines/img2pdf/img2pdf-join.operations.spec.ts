import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMG2PDF_DESCRIPTOR } from './img2pdf.descriptor.js';
import { Img2pdfRuntime } from './img2pdf.runtime.js';
import type { EngineLimits } from '../../platform/engine-descriptor.js';
import { NodeHostPool } from '../../platform/node-host/node-host.pool.js';
import { expectFailure, leftovers, testContext } from '../../../test/support/test-context.js';
import { photoJpeg, reportMissingEngine, run } from '../../../testing/pdf-samples.js';

const workRoot = mkdtempSync(join(tmpdir(), 'fileshift-img2pdf-join-'));
// The members live in the job's scratch directory, as a join's do: only it is bound into the sandbox.
const dir = mkdtempSync(join(workRoot, 'files-'));
const host = new NodeHostPool({ size: 1 });
afterAll(async () => {
  await host.stop();
  rmSync(workRoot, { recursive: true, force: true });
});

/** Each page's size in points, as pdfinfo reads it. */
function pageSizes(pdf: string): string[] {
  const pages = Number(/^Pages:\s+(\d+)/m.exec(run('pdfinfo', [pdf]))![1]);
  return [...run('pdfinfo', ['-f', '1', '-l', String(pages), pdf]).matchAll(/^Page\s+\d+ size:\s+([\d.]+ x [\d.]+) pts/gm)].map((match) => match[1]!);
}

describe('img2pdf join: pictures into one PDF, a page each, in order', () => {
  const runtime = new Img2pdfRuntime(undefined, undefined, host);
  let jpg = '';
  let png = '';
  let frames = '';
  let joins = 0;
  const joined = async (members: Array<{ path: string; format: string; name: string }>, limits: Partial<EngineLimits> = {}) => {
    const outputDir = join(dir, `join-${++joins}`);
    mkdirSync(outputDir);
    const { files } = await runtime.join({ members, outputDir, to: 'pdf', options: {} }, testContext(runtime, workRoot, limits));
    return files;
  };

  beforeAll(async () => {
    const probe = await runtime.probe();
    if (!probe.available) reportMissingEngine('img2pdf', probe.problem, IMG2PDF_DESCRIPTOR.debianPackages);
    // 640 × 480 at 150 dpi: a page of 307.2 × 230.4 pt.
    jpg = await photoJpeg(dir, 'photo', 640, 480, 150);
    // 300 × 200 at 72 dpi: 300 × 200 pt.
    png = join(dir, 'drawing.png');
    await sharp(jpg).resize(300, 200).withMetadata({ density: 72 }).png().toFile(png);
    // Two frames of 120 × 80 at 200 dpi: two pages of 43.2 × 28.8 pt.
    frames = join(dir, 'scan.tiff');
    const colours = await Promise.all(['#c00', '#00c'].map((background) => sharp({ create: { width: 120, height: 80, channels: 3, background } }).png().toBuffer()));
    await sharp(colours, { join: { animated: true } }).withMetadata({ density: 200 }).tiff().toFile(frames);
  });

  it('declares the join of jpg, png and tiff into pdf', () => {
    expect(IMG2PDF_DESCRIPTOR.joins).toEqual([{ into: 'pdf', members: ['jpg', 'png', 'tiff'] }]);
  });

  it('makes a page of each picture (of each frame of a TIFF) in the order given, each page the size of its picture', async () => {
    const progress: number[] = [];
    const outputDir = join(dir, 'ordered');
    mkdirSync(outputDir);
    const members = [
      { path: png, format: 'png', name: 'drawing.png' },
      { path: jpg, format: 'jpg', name: 'photo.jpg' },
      { path: frames, format: 'tiff', name: 'scan.tiff' },
      { path: jpg, format: 'jpg', name: 'photo again.jpg' },
    ];
    const [pdf] = (await runtime.join({ members, outputDir, to: 'pdf', options: {} }, { ...testContext(runtime, workRoot), onProgress: (p) => progress.push(p) })).files as [string];
    expect(pageSizes(pdf)).toEqual(['300 x 200', '307.2 x 230.4', '43.2 x 28.8', '43.2 x 28.8', '307.2 x 230.4']);
    // The photo goes in as it is: its JPEG bytes unchanged, on pages 2 and 5.
    const images = join(dir, 'images');
    mkdirSync(images);
    run('pdfimages', ['-all', '-f', '2', '-l', '2', pdf, join(images, 'img')]);
    const [stored] = readdirSync(images).map((name) => join(images, name)) as [string];
    expect(readFileSync(stored).equals(readFileSync(jpg))).toBe(true);
    expect(progress.at(-1)).toBe(100);
    expect(leftovers(workRoot, dir)).toEqual([]);
  });

  it('holds the pages of all pictures together to maxPages', async () => {
    const members = [
      { path: frames, format: 'tiff', name: 'scan.tiff' },
      { path: frames, format: 'tiff', name: 'scan-2.tiff' },
    ];
    // Each within the limit alone; together four pages.
    expect(pageSizes((await joined(members, { maxPages: 4 }))[0]!)).toHaveLength(4);
    const error = await expectFailure(joined(members, { maxPages: 3 }), 'file_too_large', dir);
    expect(error.message).toContain('at most 3');
    expect(leftovers(workRoot, dir)).toEqual([]);
  });

  it('names the member that fails: one that is not a picture, one past the pixel limit, one img2pdf refuses', async () => {
    const words = join(dir, 'words.png');
    writeFileSync(words, 'not a picture at all');
    let error = await expectFailure(joined([{ path: jpg, format: 'jpg', name: 'photo.jpg' }, { path: words, format: 'png', name: 'words.png' }]), 'unsupported_or_corrupt_input', dir);
    expect(error.message).toMatch(/^File 2 \(words\.png\): /);

    error = await expectFailure(joined([{ path: png, format: 'png', name: 'small.png' }, { path: jpg, format: 'jpg', name: 'big.jpg' }], { maxInputPixels: 300 * 200 }), 'security_rejected', dir);
    expect(error.message).toMatch(/^File 2 \(big\.jpg\): .*more pixels/);

    // Its header is whole (sharp reads it), its data cut off: img2pdf refuses it, in the run of all and alone.
    const cut = join(dir, 'cut.png');
    const bytes = readFileSync(png);
    writeFileSync(cut, bytes.subarray(0, bytes.length / 2));
    expect(() => run('img2pdf', ['-o', join(dir, 'refused.pdf'), cut])).toThrow(/invalid png|truncated/);
    error = await expectFailure(joined([{ path: jpg, format: 'jpg', name: 'photo.jpg' }, { path: png, format: 'png', name: 'drawing.png' }, { path: cut, format: 'png', name: 'cut.png' }]), 'unsupported_or_corrupt_input', dir);
    expect(error.message).toMatch(/^File 3 \(cut\.png\): /);
    expect(readdirSync(join(dir, `join-${joins}`))).toEqual([]);
    expect(leftovers(workRoot, dir)).toEqual([]);
  });

  it('refuses a join it does not make', async () => {
    await expectFailure(joined([{ path: jpg, format: 'gif', name: 'photo.gif' }]), 'unsupported_output_format', dir);
  });
});
