import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChromiumRuntime } from '../src/engines/chromium/chromium.runtime.js';
import { LibreOfficeRuntime } from '../src/engines/libreoffice/libreoffice.runtime.js';
import { SHARP_DESCRIPTOR } from '../src/engines/sharp/sharp.descriptor.js';
import type { EngineRuntime } from '../src/platform/engine-runtime.js';
import { engineProfile, SandboxedProcessRunner } from '../src/platform/sandboxed-process.runner.js';
import { odf, sampleDocx, sampleHtml } from '../testing/index.js';
import { nodeHostedRuntime } from './support/node-hosted.js';
import { convertStep, expectFailure } from './support/test-context.js';

/**
 * Every engine's sandbox is held to a memory bound over all its processes (EngineLimits.residentBytes), watched from
 * /proc: the warm engines, whose address-space limit bounds nothing (Chromium reserves terabytes) and which live over
 * many conversions, and a one-shot engine too. A file that makes the engine grow past a bound set between its idle
 * size and what that file needs ends `file_too_large`, naming the bound; the engine is replaced, and the next
 * conversion within the bound succeeds.
 */
const MB = 1024 ** 2;
const dir = mkdtempSync(join(tmpdir(), 'fileshift-memory-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const write = (name: string, content: string | Buffer) => {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
};

/** Converts, or fails as the bound says: the same step with the bound lowered. */
const convert = (runtime: EngineRuntime, inputPath: string, from: string, to: string, residentBytes?: number) =>
  convertStep(runtime, { inputPath, from, to }, dir, residentBytes === undefined ? {} : { limits: { ...runtime.descriptor.limits, residentBytes } });

describe('the memory bound of an engine sandbox', () => {
  const inputs: Record<string, string> = {};

  beforeAll(async () => {
    inputs.smallPng = join(dir, 'small.png');
    await sharp({ create: { width: 64, height: 64, channels: 3, background: '#3366cc' } }).png().toFile(inputs.smallPng);
    // 8000 × 8000 RGBA of one colour: a small PNG, about 250 MB decoded (libwebp and LibreOffice hold it whole).
    const picture = await sharp({ create: { width: 8000, height: 8000, channels: 4, background: '#3366cc' } }).png().toBuffer();
    inputs.largePng = write('large.png', picture);
    inputs.docx = write('small.docx', sampleDocx());
    // A document showing that picture.
    const frame = '<text:p><draw:frame draw:name="big" text:anchor-type="as-char" svg:width="15cm" svg:height="15cm"><draw:image xlink:href="Pictures/big.png" xlink:type="simple" xlink:show="embed" xlink:actuate="onLoad"/></draw:frame></text:p>';
    inputs.largeOdt = write('large.odt', odf('text', frame, { files: [{ name: 'Pictures/big.png', content: picture }] }));
    inputs.html = write('small.html', sampleHtml());
    // A page of 60 000 table rows: the browser lays out and paints every one.
    inputs.largeHtml = write('large.html', `<!doctype html><table>${Array.from({ length: 60_000 }, (_, i) => `<tr><td>row ${i}</td><td>${'text '.repeat(8)}</td></tr>`).join('')}</table>`);
    mkdirSync(join(dir, 'out'), { recursive: true });
  }, 120_000);

  /**
   * Each warm engine: a small file, a large one past its bound, then the small one again within it. The bounds sit between
   * what the engine holds for the small file here (the Node host about 60 MB, LibreOffice about 180 MB, Chromium's
   * processes about 350 MB) and what the large one makes it hold (a decoded 250 MB picture; a page whose layout takes
   * the browser past 3 GB).
   */
  const WARM = [
    { engine: 'the Node host (sharp)', make: () => nodeHostedRuntime(SHARP_DESCRIPTOR, 'sharp'), small: ['smallPng', 'png'], large: ['largePng', 'png'], to: 'webp', boundMb: 160 },
    { engine: 'LibreOffice', make: () => new LibreOfficeRuntime({ size: 1 }), small: ['docx', 'docx'], large: ['largeOdt', 'odt'], to: 'pdf', boundMb: 300 },
    { engine: 'Chromium', make: () => new ChromiumRuntime({ workRoot: dir }), small: ['html', 'html'], large: ['largeHtml', 'html'], to: 'pdf', boundMb: 800 },
  ] as const;

  it.each(WARM)('$engine: a file that grows it past its bound, then a small one within it', async ({ make, small: [small, smallFrom], large: [large, largeFrom], to, boundMb }) => {
    const runtime = make();
    try {
      await convert(runtime, inputs[small]!, smallFrom, to);
      const error = await expectFailure(convert(runtime, inputs[large]!, largeFrom, to, boundMb * MB), 'file_too_large', dir);
      expect(error.message).toBe(`The conversion needed more than ${boundMb} MB of memory.`);
      expect(await convert(runtime, inputs[small]!, smallFrom, to, boundMb * MB)).toHaveLength(1);
    } finally {
      await runtime.stop();
    }
  }, 300_000);

  it('a one-shot engine: a process that fills its memory, well under its address-space limit', async () => {
    const scratch = mkdtempSync(join(dir, 'job-'));
    const runner = new SandboxedProcessRunner(engineProfile({ limits: { timeoutMs: 60_000, maxOutputBytes: MB, residentBytes: 100 * MB } }));
    // 400 MB written page by page: resident, unlike memory only reserved.
    const fill = "b = bytearray(400 * 1024 * 1024)\nfor i in range(0, len(b), 4096): b[i] = 1\nimport time; time.sleep(30)";
    const error = await expectFailure(runner.run({ command: '/usr/bin/python3', args: ['-I', '-c', fill], scratchDir: scratch, timeoutMs: 60_000 }), 'file_too_large', scratch);
    expect(error.message).toBe('The conversion needed more than 100 MB of memory.');
  }, 120_000);
});
