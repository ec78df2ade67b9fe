import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NodeHostPool } from '../../platform/node-host/node-host.pool.js';
import { OCR_DESCRIPTOR, OCR_IMAGE_SOURCES } from './ocr.descriptor.js';
import { OcrRuntime } from './ocr.runtime.js';
import { convertStep, expectFailure, leftovers, testContext } from '../../../test/support/test-context.js';
import { pdfPages } from '../../../testing/document-checks.js';
import {
  blankPicture,
  characterErrorRate,
  COLUMNS_PAGE,
  DOCUMENT_PAGE,
  manyFramesTiff,
  manyScannedPagesPdf,
  mixedPdf,
  OCR_TEXTS,
  ocrPicture,
  ocrText,
  type OcrLanguageCode,
  REPORT_PAGES,
  reportTiff,
  scannedPicture,
  scannedReportPdf,
  TABLE_ROWS,
  turnedPicture,
} from '../../../testing/ocr-samples.js';
import { reportMissingEngine, run } from '../../../testing/pdf-samples.js';

const workRoot = mkdtempSync(join(tmpdir(), 'fileshift-ocr-work-'));
// The test's files live in the engine's scratch directory, as a job's input does: only it is bound into the sandbox.
const dir = mkdtempSync(join(workRoot, 'files-'));
const host = new NodeHostPool({ size: 1 });
const work = { workDir: workRoot };

/** Each reading's character error rate, printed as a table after the file's tests. */
const measured: Array<{ reading: string; cer: number; target: number }> = [];
afterAll(async () => {
  console.log(`\nOCR character error rates\n${measured.map(({ reading, cer, target }) => `  ${reading.padEnd(44)} ${(cer * 100).toFixed(2).padStart(6)} %  (target ≤ ${target * 100} %)`).join('\n')}\n`);
  await host.stop();
  rmSync(workRoot, { recursive: true, force: true });
});

/** Asserts that `actual` reads `expected` within `target` (a character error rate), and records the rate. */
function expectRead(reading: string, expected: string, actual: string, target: number): void {
  const cer = characterErrorRate(expected, actual);
  measured.push({ reading, cer, target });
  expect(cer, `${reading}: character error rate of\n${actual}`).toBeLessThanOrEqual(target);
}

/** Latin and Cyrillic print reads nearly without errors; the other scripts less well. */
const targetOf = (code: OcrLanguageCode) => (['ar', 'he', 'hi', 'zh', 'zh-hant', 'ja', 'ko'].includes(code) ? 0.05 : 0.02);

/** The text of a Markdown document without its markup: heading marks, table pipes and rules, escapes. */
const markdownText = (markdown: string) =>
  markdown
    .split('\n')
    .filter((line) => !/^\s*\|?\s*:?-{3,}/.test(line))
    .map((line) => line.replace(/^#{1,6}\s+/, '').replace(/\|/g, ' '))
    .join('\n')
    .replace(/\\([\\`*_{}[\]()#+\-.!|<>])/g, '$1');

/** The blocks of a Markdown document (parted by blank lines), each as plain text. */
const markdownBlocks = (markdown: string) =>
  markdown
    .split(/\n\s*\n/)
    .map((block) => block.trim())
    .filter(Boolean);

/** poppler's text of one page of a PDF (an independent reader). */
const pageText = (pdf: string, page: number) => run('pdftotext', ['-layout', '-f', String(page), '-l', String(page), pdf, '-']);

const read = (path: string) => readFileSync(path, 'utf8');

describe('OcrRuntime (Debian packages tesseract-ocr, its 15 languages, ocrmypdf)', () => {
  const runtime = new OcrRuntime(undefined, host);
  const clean = new Map<OcrLanguageCode, string>();
  let scannedEnglish = '';
  let scannedGerman = '';
  let turned90 = '';
  let turned180 = '';
  let blank = '';
  let documentPage = '';
  let columnsPage = '';
  let tablePage = '';
  let report = '';
  let frames51 = '';
  let scannedReport = '';
  let mixed = '';
  let scanned51 = '';

  beforeAll(async () => {
    const probe = await runtime.probe();
    if (!probe.available) {
      reportMissingEngine('OCR', probe.problem, OCR_DESCRIPTOR.debianPackages);
      return;
    }
    for (const { code } of OCR_TEXTS) clean.set(code, await ocrPicture(dir, code));
    scannedEnglish = await scannedPicture(dir, 'en', { angle: 1.5, seed: 1 });
    scannedGerman = await scannedPicture(dir, 'de', { angle: -1.2, seed: 2 });
    turned90 = await turnedPicture(dir, 'en', 90);
    turned180 = await turnedPicture(dir, 'en', 180);
    blank = await blankPicture(dir);
    documentPage = await ocrPicture(dir, 'document');
    columnsPage = await ocrPicture(dir, 'columns');
    tablePage = await ocrPicture(dir, 'table');
    report = await reportTiff(dir);
    frames51 = await manyFramesTiff(dir, 51);
    scannedReport = await scannedReportPdf(dir);
    mixed = await mixedPdf(dir);
    scanned51 = await manyScannedPagesPdf(dir, 51);
  }, 180_000);

  it('is installed with the trained data of every language, and says which versions', async () => {
    const probe = await runtime.probe();
    expect(probe.problem).toBeUndefined();
    expect(probe.available).toBe(true);
    expect(probe.version).toMatch(/tesseract 5\.\d+.*OCRmyPDF \d+\.\d+/);
  });

  it('measures the character error rate as the edit distance over the expected length', () => {
    expect(characterErrorRate('abcd', 'abxd')).toBe(0.25);
    expect(characterErrorRate('abcd', 'abd')).toBe(0.25);
    expect(characterErrorRate('abc', 'abcde')).toBeCloseTo(2 / 3);
    // White space collapsed; composed and decomposed accents compare equal (NFC).
    expect(characterErrorRate('Größere  Änderungen\nsind gut', ' Gro\u0308ßere A\u0308nderungen sind\tgut ')).toBe(0);
    // CJK: the spaces OCR puts between characters are no error.
    expect(characterErrorRate('我们城市开了一座新的图书馆。', '我们 城市 开了一座新的图 书馆。\n')).toBe(0);
    expect(characterErrorRate('我们城市开了一座新的图书馆。', '我们城市开了一座新的图书館。')).toBeCloseTo(1 / 14);
  });

  describe('a clean picture read in the language named (png → txt)', () => {
    for (const { code, name } of OCR_TEXTS) {
      it(`reads ${name} within ${targetOf(code) * 100} % of its characters`, async () => {
        const [out] = (await convertStep(runtime, { inputPath: clean.get(code)!, from: 'png', to: 'txt', options: { languages: [code] } }, dir, work)) as [string];
        expectRead(`${name}, languages: ["${code}"]`, ocrText(code).text, read(out), targetOf(code));
      });
    }

    it('passes the languages on: German read as German has its umlauts and ß', async () => {
      const [out] = (await convertStep(runtime, { inputPath: clean.get('de')!, from: 'png', to: 'txt', options: { languages: ['de'] } }, dir, work)) as [string];
      for (const word of ['Bürger', 'Straßenbahn', 'Brücke', 'nächsten', 'Frühjahr', 'Größere', 'Änderungen']) expect(read(out)).toContain(word);
      // Not named, a Latin page is read as English, which has no ß.
      const [english] = (await convertStep(runtime, { inputPath: clean.get('de')!, from: 'png', to: 'txt' }, dir, work)) as [string];
      expect(read(english)).not.toContain('Straßenbahn');
      expect(leftovers(workRoot, dir)).toEqual([]);
    });
  });

  describe('languages found from the script when none are named', () => {
    for (const code of ['en', 'ru', 'ar', 'he', 'ja'] as const) {
      it(`reads ${ocrText(code).name} within ${targetOf(code) * 100} % without being told the language`, async () => {
        const [out] = (await convertStep(runtime, { inputPath: clean.get(code)!, from: 'png', to: 'txt' }, dir, work)) as [string];
        expectRead(`${ocrText(code).name}, languages by script`, ocrText(code).text, read(out), targetOf(code));
      });
    }

    it('reads a blank picture as no text', async () => {
      const [out] = (await convertStep(runtime, { inputPath: blank, from: 'png', to: 'txt' }, dir, work)) as [string];
      expect(read(out).trim()).toBe('');
    });
  });

  describe('scans and turned pages', () => {
    it('reads an English scan (turned 1.5°, grainy, JPEG quality 55) within 5 %', async () => {
      const [out] = (await convertStep(runtime, { inputPath: scannedEnglish, from: 'jpg', to: 'txt' }, dir, work)) as [string];
      expectRead('English scan, languages by script', ocrText('en').text, read(out), 0.05);
    });

    it('reads a German scan within 5 % with German named', async () => {
      const [out] = (await convertStep(runtime, { inputPath: scannedGerman, from: 'jpg', to: 'txt', options: { languages: ['de'] } }, dir, work)) as [string];
      expectRead('German scan, languages: ["de"]', ocrText('de').text, read(out), 0.05);
    });

    for (const [turn, picture] of [
      [90, () => turned90],
      [180, () => turned180],
    ] as const) {
      it(`reads a page turned ${turn}° within 5 %`, async () => {
        const [out] = (await convertStep(runtime, { inputPath: picture(), from: 'png', to: 'txt' }, dir, work)) as [string];
        expectRead(`English turned ${turn}°`, ocrText('en').text, read(out), 0.05);
      });
    }

    it('reads the three frames of a TIFF as three pages, in order', async () => {
      const [out] = (await convertStep(runtime, { inputPath: report, from: 'tiff', to: 'txt' }, dir, work)) as [string];
      const text = read(out);
      expectRead('3-frame TIFF, languages by script', REPORT_PAGES.join('\n'), text, 0.02);
      const starts = ['Page one.', 'Page two.', 'Page three.'].map((start) => text.indexOf(start));
      expect(starts.every((at) => at >= 0)).toBe(true);
      expect(starts).toEqual([...starts].sort((a, b) => a - b));
      // What the step left in the scratch directory is reported, then removed so that it fails no other test.
      const left = leftovers(workRoot, dir);
      for (const entry of left) rmSync(join(workRoot, entry), { recursive: true, force: true });
      expect(left).toEqual([]);
    }, 120_000);

    it('reads every picture format of its descriptor', async () => {
      const png = clean.get('en')!;
      const inputs: Record<(typeof OCR_IMAGE_SOURCES)[number], string> = { png, jpg: join(dir, 'en.jpg'), tiff: join(dir, 'en.tiff'), webp: join(dir, 'en.webp') };
      await sharp(png).jpeg({ quality: 92 }).toFile(inputs.jpg);
      await sharp(png).tiff({ compression: 'lzw' }).toFile(inputs.tiff);
      await sharp(png).webp({ lossless: true }).toFile(inputs.webp);
      for (const from of OCR_IMAGE_SOURCES) {
        const [out] = (await convertStep(runtime, { inputPath: inputs[from], from, to: 'txt', options: { languages: ['en'] } }, dir, work)) as [string];
        expectRead(`English as ${from}`, ocrText('en').text, read(out), 0.02);
      }
    }, 120_000);
  });

  describe('png → md: the layout of the page', () => {
    it('makes the large line a heading and keeps the paragraphs apart, each whole', async () => {
      const [out] = (await convertStep(runtime, { inputPath: documentPage, from: 'png', to: 'md' }, dir, work)) as [string];
      const markdown = read(out);
      const blocks = markdownBlocks(markdown);
      expect.soft(blocks, markdown).toHaveLength(3);
      expect.soft(blocks[0], markdown).toMatch(/^# /);
      expectRead('Markdown: the heading', DOCUMENT_PAGE.heading, markdownText(blocks[0] ?? ''), 0.02);
      for (const [index, paragraph] of DOCUMENT_PAGE.paragraphs.entries()) expectRead(`Markdown: paragraph ${index + 1}`, paragraph, markdownText(blocks[index + 1] ?? ''), 0.02);
    });

    it('reads two columns column by column', async () => {
      const [out] = (await convertStep(runtime, { inputPath: columnsPage, from: 'png', to: 'md' }, dir, work)) as [string];
      const markdown = read(out);
      // Lines of the two columns taken side by side would interleave their sentences: far from the text in order.
      expectRead('Markdown of two columns', `${COLUMNS_PAGE.left}\n${COLUMNS_PAGE.right}`, markdownText(markdown), 0.02);
      expect(markdown.indexOf('end of August')).toBeLessThan(markdown.indexOf('The cooperative'));
      expect(markdownBlocks(markdown), markdown).toHaveLength(2);
    });

    it("keeps a table's rows as rows", async () => {
      const [out] = (await convertStep(runtime, { inputPath: tablePage, from: 'png', to: 'md' }, dir, work)) as [string];
      const lines = read(out).split('\n');
      for (const row of TABLE_ROWS) {
        const cells = new RegExp(row.map((cell) => cell.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[ |]+'));
        expect(
          lines.some((line) => cells.test(line)),
          `the row ${row.join(' | ')} in\n${lines.join('\n')}`,
        ).toBe(true);
      }
    });
  });

  describe('→ pdf: searchable PDFs', () => {
    it('makes a picture a PDF with its picture and the text under it (ocr: true)', async () => {
      const [out] = (await convertStep(runtime, { inputPath: clean.get('en')!, from: 'png', to: 'pdf', options: { ocr: true } }, dir, work)) as [string];
      expect(pdfPages(out)).toBe(1);
      expectRead('png → pdf, pdftotext of the text layer', ocrText('en').text, pageText(out, 1), 0.02);
      const images = run('pdfimages', ['-list', out]).split('\n').slice(2).filter((line) => line.trim());
      expect(images).toHaveLength(1);
      expect(images[0]!.trim().split(/\s+/).slice(2, 5)).toEqual(['image', '1400', '420']);
    });

    it('makes a scanned PDF searchable, page by page (OCRmyPDF)', async () => {
      const [out] = (await convertStep(runtime, { inputPath: scannedReport, from: 'pdf', to: 'pdf', options: { ocr: true } }, dir, work)) as [string];
      expect(pdfPages(out)).toBe(3);
      for (const [index, text] of REPORT_PAGES.entries()) expectRead(`scanned PDF → pdf, page ${index + 1}`, text, pageText(out, index + 1), 0.05);
      expect(leftovers(workRoot, dir)).toEqual([]);
    }, 180_000);

    it('leaves the text of a page that has text as it was, and reads the scanned one', async () => {
      const [out] = (await convertStep(runtime, { inputPath: mixed, from: 'pdf', to: 'pdf', options: { ocr: true } }, dir, work)) as [string];
      expect(pdfPages(out)).toBe(2);
      expect(pageText(out, 1)).toBe(pageText(mixed, 1));
      expect(pageText(mixed, 2).trim()).toBe('');
      expectRead('mixed PDF → pdf, the scanned page', REPORT_PAGES[0], pageText(out, 2), 0.05);
    }, 120_000);
  });

  describe('limits', () => {
    it('refuses a TIFF of 51 frames, naming the 50 pages OCR reads', async () => {
      const error = await expectFailure(convertStep(runtime, { inputPath: frames51, from: 'tiff', to: 'txt' }, dir, work), 'file_too_large', dir);
      expect(error.message).toMatch(/\b50\b/);
      expect(leftovers(workRoot, dir)).toEqual([]);
    });

    it('refuses a PDF of 51 scanned pages before reading any, naming 50', async () => {
      const outputDir = join(dir, 'refused-pdf');
      mkdirSync(outputDir);
      const conversion = runtime.convert({ inputPath: scanned51, outputDir, from: 'pdf', to: 'pdf', options: { ocr: true } }, testContext(runtime, workRoot));
      const error = await expectFailure(conversion, 'file_too_large', dir);
      expect(error.message).toMatch(/\b50\b/);
      expect(readdirSync(outputDir)).toEqual([]);
      expect(leftovers(workRoot, dir)).toEqual([]);
    });
  });
});
