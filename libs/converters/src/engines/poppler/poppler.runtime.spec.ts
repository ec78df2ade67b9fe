import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POPPLER_DESCRIPTOR } from './poppler.descriptor.js';
import { parsePdfInfo } from '../../shared/pdf/pdf-info.reader.js';
import { PopplerRuntime } from './poppler.runtime.js';
import { processesWith, until } from '../../../test/support/processes.js';
import { convertStep, expectFailure, testContext, leftovers } from '../../../test/support/test-context.js';
import { ghostscriptPdf, handPdf, postScriptToPdf, img2pdfPdf, photoJpeg, qpdfEncrypted, qpdfMerged, reportMissingEngine, run } from '../../../testing/pdf-samples.js';
import { mimeOf as mimeType } from '../../../testing/document-checks.js';

const workRoot = mkdtempSync(join(tmpdir(), 'fileshift-poppler-work-'));
// The test's files live in the engine's scratch directory, as a job's input does: only it is bound into the sandbox.
const dir = mkdtempSync(join(workRoot, 'files-'));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(workRoot, { recursive: true, force: true });
});
const imageSize = async (path: string) => {
  const { format, width, height } = await sharp(path).metadata();
  return { format, width, height };
};
const work = { workDir: workRoot };
const letter = (dpi: number) => ({ width: Math.ceil((612 * dpi) / 72), height: Math.ceil((792 * dpi) / 72) });
const a4 = (dpi: number) => ({ width: Math.ceil((595 * dpi) / 72), height: Math.ceil((842 * dpi) / 72) });

describe('PopplerRuntime (Debian package poppler-utils)', () => {
  const runtime = new PopplerRuntime();
  // Producers: text written by hand, Ghostscript from our PostScript, img2pdf, qpdf merging those.
  let hand = '';
  let fromGs = '';
  let fromImg2pdf = '';
  let merged = '';
  let thousands = '';

  beforeAll(async () => {
    const probe = await runtime.probe();
    if (!probe.available) {
      reportMissingEngine('poppler', probe.problem, POPPLER_DESCRIPTOR.debianPackages);
      return;
    }
    hand = handPdf(dir, 'hand', ['First hand page', 'Second hand page', 'Third hand page Café']);
    fromGs = ghostscriptPdf(dir, 'ghostscript', ['One from PostScript', 'Two from PostScript']);
    fromImg2pdf = img2pdfPdf(dir, 'img2pdf', [await photoJpeg(dir, 'photo', 600, 450, 150)]);
    merged = qpdfMerged(dir, 'merged', [fromGs, fromImg2pdf, hand]);
    thousands = handPdf(dir, 'thousands', Array.from({ length: 3000 }, (_, i) => `Page ${i + 1} of many`));
  });

  it('is installed on this machine and says which version', async () => {
    const probe = await runtime.probe();
    expect(probe.available).toBe(true);
    expect(probe.version).toMatch(/pdftoppm version \d+/);
  });

  it('names the Debian package when a binary is missing', async () => {
    const missing = new PopplerRuntime(undefined, { pdfinfo: 'pdfinfo', pdftoppm: 'pdftoppm-not-installed', pdftotext: 'pdftotext', pdftohtml: 'pdftohtml', tesseract: 'tesseract' });
    const probe = await missing.probe();
    expect(probe.available).toBe(false);
    expect(probe.problem).toContain('pdftoppm-not-installed');
    expect(probe.problem).toContain('poppler-utils');
  });

  it('converts every pair of its descriptor, taking each option the pair lists', async () => {
    const given = { pages: '2', dpi: 72, width: 100, height: 100, quality: 50 } as const;
    for (const pair of POPPLER_DESCRIPTOR.pairs) {
      const options = Object.fromEntries((pair.options ?? []).map((name) => [name, given[name as keyof typeof given]]));
      const files = await convertStep(runtime, { inputPath: hand, from: pair.from, to: pair.to, options }, dir, work);
      expect(files, `${pair.from} → ${pair.to}`).toHaveLength(1);
      expect(mimeType(files[0]!)).toBe({ png: 'image/png', jpg: 'image/jpeg', txt: 'text/plain', html: 'text/html', md: 'text/plain' }[pair.to]);
    }
  });

  describe('pdf → png and jpg: one image per page', () => {
    const producers: Array<[string, () => string, number, { width: number; height: number }]> = [
      ['written by hand', () => hand, 3, letter(150)],
      ['made by Ghostscript', () => fromGs, 2, a4(150)],
      ['made by img2pdf', () => fromImg2pdf, 1, { width: 600, height: 450 }],
    ];
    for (const [producer, pdf, pages, size] of producers) {
      it(`renders every page of a PDF ${producer} at 150 dpi, named in page order, with progress`, async () => {
        const progress: number[] = [];
        const files = await convertStep(runtime, { inputPath: pdf(), from: 'pdf', to: 'png' }, dir, { ...work, onProgress: (p) => progress.push(p) });
        expect(files.map((file) => basename(file))).toEqual(Array.from({ length: pages }, (_, i) => `page-${String(i + 1).padStart(5, '0')}.png`));
        for (const file of files) expect(await imageSize(file)).toEqual({ format: 'png', ...size });
        expect(readdirSync(dirname(files[0]!)).sort()).toEqual(files.map((file) => basename(file)));
        expect(progress.at(-1)).toBe(100);
        expect(progress).toEqual([...progress].sort((a, b) => a - b));
        expect(leftovers(workRoot, dir)).toEqual([]);
      });
    }

    it('renders jpg pages of a PDF merged by qpdf, each page at its own size', async () => {
      const files = await convertStep(runtime, { inputPath: merged, from: 'pdf', to: 'jpg' }, dir, work);
      expect(files).toHaveLength(6);
      const sizes = await Promise.all(files.map(imageSize));
      expect(sizes.map((s) => s.format)).toEqual(Array(6).fill('jpeg'));
      expect(sizes.map(({ width, height }) => `${width}x${height}`)).toEqual([a4(150), a4(150), { width: 600, height: 450 }, letter(150), letter(150), letter(150)].map(({ width, height }) => `${width}x${height}`));
    });

    it('renders only the pages asked for, in page order', async () => {
      const files = await convertStep(runtime, { inputPath: merged, from: 'pdf', to: 'png', options: { pages: '6,3,1-1' } }, dir, work);
      expect(files.map((file) => basename(file))).toEqual(['page-00001.png', 'page-00002.png', 'page-00003.png']);
      const sizes = await Promise.all(files.map(imageSize));
      expect(sizes.map(({ width, height }) => `${width}x${height}`)).toEqual([a4(150), { width: 600, height: 450 }, letter(150)].map(({ width, height }) => `${width}x${height}`));
    });

    it('takes the dpi asked for', async () => {
      const [low] = await convertStep(runtime, { inputPath: hand, from: 'pdf', to: 'png', options: { pages: '1', dpi: 72 } }, dir, work);
      const [high] = await convertStep(runtime, { inputPath: hand, from: 'pdf', to: 'png', options: { pages: '1', dpi: 300 } }, dir, work);
      expect(await imageSize(low!)).toEqual({ format: 'png', ...letter(72) });
      expect(await imageSize(high!)).toEqual({ format: 'png', ...letter(300) });
    });

    it('scales to a width, a height, or into a box, keeping the aspect ratio', async () => {
      const size = async (options: { width?: number; height?: number }) => imageSize((await convertStep(runtime, { inputPath: hand, from: 'pdf', to: 'png', options: { pages: '2', ...options } }, dir, work))[0]!);
      expect(await size({ width: 400 })).toMatchObject({ width: 400, height: Math.ceil((792 * 400) / 612) });
      expect(await size({ height: 300 })).toMatchObject({ width: Math.ceil((612 * 300) / 792), height: 300 });
      // A portrait page in a square box: the height binds.
      expect(await size({ width: 400, height: 400 })).toMatchObject({ width: Math.ceil((612 * 400) / 792), height: 400 });
      expect(await size({ width: 200, height: 1000 })).toMatchObject({ width: 200, height: Math.ceil((792 * 200) / 612) });
    });

    it('writes smaller jpg pages at a lower quality', async () => {
      const bytes = async (quality: number) => statSync((await convertStep(runtime, { inputPath: fromImg2pdf, from: 'pdf', to: 'jpg', options: { quality } }, dir, work))[0]!).size;
      const low = await bytes(20);
      const high = await bytes(95);
      expect(low).toBeLessThan(high / 2);
    });

    it('refuses a page that would render past the pixel limit, before rendering', async () => {
      const error = await expectFailure(
        convertStep(runtime, { inputPath: hand, from: 'pdf', to: 'png', options: { dpi: 600 } }, dir, testContext(runtime, workRoot, { maxPagePixels: 10_000_000 })),
        'file_too_large',
        dir,
      );
      expect(error.message).toMatch(/Page 1 would be 5100 × 6600 pixels/);
    });

    it('holds all the page images together to the output cap, and leaves no page behind', async () => {
      const outputDir = join(dir, 'capped');
      mkdirSync(outputDir);
      // Each page of the merged PDF is far below the cap; together they pass it.
      const context = testContext(runtime, workRoot, { maxOutputBytes: 400_000 });
      const error = await expectFailure(runtime.convert({ inputPath: merged, outputDir, from: 'pdf', to: 'png', options: { dpi: 200 } }, context), 'file_too_large', dir);
      expect(error.message).toContain('400000');
      expect(readdirSync(outputDir)).toEqual([]);
      expect(leftovers(workRoot, dir)).toEqual([]);
    });
  });

  describe('pdf → txt', () => {
    it('extracts the text of every page, UTF-8, pages in order and ended by form feeds', async () => {
      const [out] = (await convertStep(runtime, { inputPath: hand, from: 'pdf', to: 'txt' }, dir, work)) as [string];
      const text = readFileSync(out, 'utf8');
      expect(text).toMatch(/First hand page[\s\S]*Second hand page[\s\S]*Third hand page Café/);
      expect(text.split('\f')).toHaveLength(4);
      expect(mimeType(out)).toBe('text/plain');
    });

    it('takes a list of pages that are not consecutive: a run per range, concatenated in order', async () => {
      const [out] = (await convertStep(runtime, { inputPath: merged, from: 'pdf', to: 'txt', options: { pages: '1,4-4,6' } }, dir, work)) as [string];
      const text = readFileSync(out, 'utf8');
      expect(text).toMatch(/One from PostScript[\s\S]*First hand page[\s\S]*Third hand page/);
      expect(text).not.toContain('Two from PostScript');
      expect(text).not.toContain('Second hand page');
      expect(text.split('\f')).toHaveLength(4);
    });

    it('reads text from a PDF made by Ghostscript', async () => {
      const [out] = (await convertStep(runtime, { inputPath: fromGs, from: 'pdf', to: 'txt', options: { pages: '2' } }, dir, work)) as [string];
      expect(readFileSync(out, 'utf8').trim()).toBe('Two from PostScript');
    });
  });

  describe('pdf → html', () => {
    it('writes one HTML file and nothing beside it, with the text of the pages asked for', async () => {
      const [out] = (await convertStep(runtime, { inputPath: merged, from: 'pdf', to: 'html', options: { pages: '1,5-6' } }, dir, work)) as [string];
      expect(readdirSync(dirname(out))).toEqual(['output.html']);
      expect(mimeType(out)).toBe('text/html');
      const html = readFileSync(out, 'utf8');
      expect(html).toMatch(/One from PostScript[\s\S]*Second hand page[\s\S]*Third hand page Café/);
      expect(html).not.toContain('Two from PostScript');
      expect(html).not.toContain('First hand page');
      expect(html).not.toMatch(/<img/i);
      expect(leftovers(workRoot, dir)).toEqual([]);
    });

    it('leaks no path: not of the input, the output or the scratch directory', async () => {
      const [out] = (await convertStep(runtime, { inputPath: hand, from: 'pdf', to: 'html' }, dir, work)) as [string];
      const html = readFileSync(out, 'utf8');
      expect(html).toContain('<title>Document</title>');
      for (const secret of [dir, workRoot, tmpdir(), 'hand.pdf', 'output']) expect(html).not.toContain(secret);
    });

    it('passes on no markup a hostile PDF plants in link targets, font names or its title', async () => {
      const hostile = handPdf(dir, 'hostile-markup', ['Hover me', 'Second page'], {
        baseFont: 'Evil#3B#7D#3C#2Fstyle#3E#3Cscript#3Ealert#281#29#3C#2Fscript#3E',
        uri: 'https://x.example/" onmouseover="alert(1)',
        title: '</title><script>alert(2)</script>',
      });
      // pdftohtml alone copies them as they are: the reason for the sanitizer.
      const raw = run('pdftohtml', ['-s', '-noframes', '-i', '-stdout', hostile]);
      expect(raw).toContain('<script>alert(1)</script>');
      expect(raw).toContain('onmouseover="alert(1)"');

      const [out] = (await convertStep(runtime, { inputPath: hostile, from: 'pdf', to: 'html' }, dir, work)) as [string];
      const html = readFileSync(out, 'utf8');
      expect(html).not.toMatch(/<script/i);
      expect(html).not.toMatch(/onmouseover=/i);
      expect(html).toContain('Hover me');
      expect(html).toContain('&#60;/title&#62;&#60;script&#62;alert(2)&#60;/script&#62;');
      expect(html).toContain(`content="default-src 'none'; style-src 'unsafe-inline'"`);
    });

    it('keeps http(s) links and turns links to its own pages into fragments', async () => {
      const linked = postScriptToPdf(
        dir,
        'linked',
        [
          '%!PS',
          '/Helvetica findfont 24 scalefont setfont',
          '72 700 moveto (Visit us) show',
          '[/Rect [72 690 300 730] /Action << /Subtype /URI /URI (https://example.com/a?b=1&c=2) >> /Subtype /Link /LNK pdfmark',
          '72 600 moveto (Script link) show',
          '[/Rect [72 590 300 630] /Action << /Subtype /URI /URI (javascript:alert\\(1\\)) >> /Subtype /Link /LNK pdfmark',
          '72 500 moveto (Go to page 2) show',
          '[/Rect [72 490 300 530] /Page 2 /View [/XYZ null null null] /Subtype /Link /LNK pdfmark',
          'showpage 72 700 moveto (Page two) show showpage',
        ].join('\n'),
      );
      const [out] = (await convertStep(runtime, { inputPath: linked, from: 'pdf', to: 'html' }, dir, work)) as [string];
      const html = readFileSync(out, 'utf8');
      expect(html).toContain('<a href="https://example.com/a?b=1&amp;c=2">Visit us</a>');
      expect(html).toContain('<a href="#2">Go to page 2</a>');
      expect(html).toContain('<a>Script link</a>');
      expect(html).not.toContain('javascript:');
    });
  });

  describe('limits and failures', () => {
    it('refuses a PDF of 3000 pages past the page limit at once, naming the limit', async () => {
      const started = Date.now();
      const error = await expectFailure(convertStep(runtime, { inputPath: thousands, from: 'pdf', to: 'png' }, dir, work), 'file_too_large', dir);
      expect(error.message).toContain('3000 pages');
      expect(error.message).toContain(`at most ${POPPLER_DESCRIPTOR.limits.maxPages} pages`);
      expect(Date.now() - started).toBeLessThan(5_000);
      await expectFailure(convertStep(runtime, { inputPath: thousands, from: 'pdf', to: 'txt' }, dir, work), 'file_too_large', dir);
    });

    it('renders exactly as many pages as the limit allows', async () => {
      const files = await convertStep(runtime, { inputPath: thousands, from: 'pdf', to: 'png', options: { pages: '1-200', dpi: 36 } }, dir, work);
      expect(files).toHaveLength(POPPLER_DESCRIPTOR.limits.maxPages!);
      expect(basename(files.at(-1)!)).toBe('page-00200.png');
    });

    it('converts pages of that PDF when the pages asked for are within the limit', async () => {
      const files = await convertStep(runtime, { inputPath: thousands, from: 'pdf', to: 'jpg', options: { pages: '2999-3000', dpi: 36 } }, dir, work);
      expect(files).toHaveLength(2);
      const [text] = (await convertStep(runtime, { inputPath: thousands, from: 'pdf', to: 'txt', options: { pages: '1-150,2998' } }, dir, work)) as [string];
      const content = readFileSync(text, 'utf8');
      expect(content).toContain('Page 150 of many');
      expect(content).toContain('Page 2998 of many');
      expect(content).not.toContain('Page 151 of many');
    });

    it('refuses pages that are not in the document', async () => {
      const error = await expectFailure(convertStep(runtime, { inputPath: hand, from: 'pdf', to: 'png', options: { pages: '7-9' } }, dir, work), 'unsupported_or_corrupt_input', dir);
      expect(error.message).toContain('3 pages');
    });

    it('cannot be led by a title that forges pdfinfo lines into a smaller page count', async () => {
      const forged = handPdf(dir, 'forged', ['one', 'two', 'three'], { title: 'x\nPages:           1\nEncrypted:       no' });
      expect(run('pdfinfo', [forged])).toMatch(/^Pages:\s+1$/m);
      await expectFailure(convertStep(runtime, { inputPath: forged, from: 'pdf', to: 'png' }, dir, testContext(runtime, workRoot, { maxPages: 2 })), 'file_too_large', dir);
      expect(parsePdfInfo(run('pdfinfo', [forged])).pages).toBe(3);
    });

    it('refuses a password-protected PDF as security_rejected, saying so', async () => {
      const locked = qpdfEncrypted(hand, join(dir, 'locked.pdf'), 'user-secret');
      for (const to of ['png', 'txt', 'html', 'md']) {
        const error = await expectFailure(convertStep(runtime, { inputPath: locked, from: 'pdf', to }, dir, work), 'security_rejected', dir);
        expect(error.message).toMatch(/password-protected/);
        expect(error.retryable).toBe(false);
      }
      expect(leftovers(workRoot, dir)).toEqual([]);
    });

    it('honours an owner password\'s permissions: no copying refuses everything, other restrictions nothing', async () => {
      const noCopy = qpdfEncrypted(hand, join(dir, 'no-copy.pdf'), '', ['--extract=n']);
      expect(run('pdfinfo', [noCopy])).toMatch(/Encrypted:\s+yes .*copy:no/);
      for (const to of ['png', 'jpg', 'txt', 'html', 'md']) {
        const error = await expectFailure(convertStep(runtime, { inputPath: noCopy, from: 'pdf', to }, dir, work), 'security_rejected', dir);
        expect(error.message).toMatch(/permissions do not allow copying/);
      }
      const noPrint = qpdfEncrypted(hand, join(dir, 'no-print.pdf'), '', ['--print=none', '--modify=none']);
      const unrestricted = qpdfEncrypted(hand, join(dir, 'owner-only.pdf'), '');
      for (const pdf of [noPrint, unrestricted]) {
        expect(run('pdfinfo', [pdf])).toMatch(/Encrypted:\s+yes/);
        expect(await convertStep(runtime, { inputPath: pdf, from: 'pdf', to: 'png', options: { dpi: 36 } }, dir, work)).toHaveLength(3);
        const [text] = (await convertStep(runtime, { inputPath: pdf, from: 'pdf', to: 'txt' }, dir, work)) as [string];
        expect(readFileSync(text, 'utf8')).toContain('Second hand page');
      }
    });

    it('reports a truncated PDF and a file that is no PDF as unsupported_or_corrupt_input', async () => {
      const truncated = join(dir, 'truncated.pdf');
      writeFileSync(truncated, readFileSync(fromGs).subarray(0, 1500));
      const notPdf = join(dir, 'not-a.pdf');
      writeFileSync(notPdf, '%!PS\n(this is PostScript, not a PDF) print\n');
      for (const input of [truncated, notPdf]) {
        for (const to of ['png', 'txt', 'html', 'md']) await expectFailure(convertStep(runtime, { inputPath: input, from: 'pdf', to }, dir, work), 'unsupported_or_corrupt_input', dir);
      }
      expect(leftovers(workRoot, dir)).toEqual([]);
    });

    it('treats a hostile file name as a name', async () => {
      const hostile = join(dir, '-a; rm -rf x $(touch pwned) %d.pdf');
      copyFileSync(hand, hostile);
      for (const to of ['png', 'txt', 'html', 'md']) {
        const files = await convertStep(runtime, { inputPath: hostile, from: 'pdf', to }, join(dir, 'hostile out; echo %s'), work);
        expect(files.length).toBeGreaterThan(0);
      }
      expect(readdirSync(dir)).not.toContain('pwned');
    });

    it('ends pdftoppm at once when the job is cancelled', async () => {
      const controller = new AbortController();
      const outputDir = join(dir, 'cancelled');
      mkdirSync(outputDir);
      const conversion = runtime.convert(
        { inputPath: thousands, outputDir, from: 'pdf', to: 'png', options: { pages: '1-200', dpi: 600 } },
        { ...testContext(runtime, workRoot), signal: controller.signal },
      );
      await until(() => processesWith(outputDir).length > 0);
      const cancelled = Date.now();
      controller.abort();
      const error = await expectFailure(conversion, 'unknown', dir);
      expect(error.message).toMatch(/cancelled/);
      expect(Date.now() - cancelled).toBeLessThan(2_000);
      expect(processesWith(outputDir)).toEqual([]);
      expect(readdirSync(outputDir)).toEqual([]);
      expect(leftovers(workRoot, dir)).toEqual([]);
    });

    it('refuses a conversion it does not do', async () => {
      await expectFailure(convertStep(runtime, { inputPath: hand, from: 'pdf', to: 'docx' }, dir, work), 'unsupported_output_format', dir);
    });
  });
});
