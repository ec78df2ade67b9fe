import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NodeHostPool } from '../../platform/node-host/node-host.pool.js';
import { SandboxedProcessRunner } from '../../platform/sandboxed-process.runner.js';
import { POPPLER_DESCRIPTOR } from '../poppler/poppler.descriptor.js';
import { PopplerRuntime } from '../poppler/poppler.runtime.js';
import { OCR_DESCRIPTOR } from './ocr.descriptor.js';
import { OcrRuntime } from './ocr.runtime.js';
import { Tesseract } from '../../shared/tesseract/tesseract.js';
import { convertStep } from '../../../test/support/test-context.js';
import { characterErrorRate } from '../../../testing/ocr-samples.js';
import { reportMissingEngine } from '../../../testing/pdf-samples.js';
import { RTL_PAGES, type RtlPage, rtlPicture, rtlPrintedPdf, rtlScannedPdf, rtlText } from '../../../testing/rtl-samples.js';

/**
 * The reading order of right-to-left Markdown: Arabic and Hebrew pages drawn by Chromium, read to Markdown as a
 * picture (OCR), as a scanned PDF (poppler with OCR) and as a PDF with text (poppler), each checked against the text
 * drawn: lines top to bottom, words right to left, two columns right one first, a Latin name and a year in a line
 * kept where they are read. Its line order reversed, a page of text is more than half wrong; these read within 5 %.
 */
const workRoot = mkdtempSync(join(tmpdir(), 'fileshift-rtl-work-'));
// The test's files live in the engine's scratch directory, as a job's input does: only it is bound into the sandbox.
const dir = mkdtempSync(join(workRoot, 'files-'));
const host = new NodeHostPool({ size: 1 });
const work = { workDir: workRoot };
const ocr = new OcrRuntime(undefined, host);
const poppler = new PopplerRuntime(undefined, undefined, host);

/** A scan reads within this share of its characters (the other OCR samples of these scripts: 5 %); a PDF's text exactly but for spaces. */
const SCAN_TARGET = 0.05;
const TEXT_TARGET = 0.01;

const measured: Array<{ reading: string; cer: number }> = [];
afterAll(async () => {
  console.log(`\nRight-to-left Markdown, character error rates\n${measured.map(({ reading, cer }) => `  ${reading.padEnd(48)} ${(cer * 100).toFixed(2).padStart(6)} %`).join('\n')}\n`);
  await host.stop();
  rmSync(workRoot, { recursive: true, force: true });
});

/** The text of Markdown without its markup: heading marks, escapes, blank lines. */
const markdownText = (markdown: string) =>
  markdown
    .replace(/^#{1,6}\s+/gm, '')
    .replace(/\\([\\`*_{}[\]()#+\-.!|<>])/g, '$1')
    .replace(/\n\s*\n/g, '\n');

/** Where each of `words` is found in `text`, each searched after the one before (-1 once one is missing or out of order). */
function positions(text: string, words: readonly string[]): number[] {
  let from = 0;
  return words.map((word) => {
    const at = from < 0 ? -1 : text.indexOf(word, from);
    from = at < 0 ? -1 : at + word.length;
    return at;
  });
}

/** The first and last word of each line drawn, in reading order: they must come out in that order. */
const lineEnds = (text: string) => text.split('\n').flatMap((line) => [line.split(' ')[0]!, line.split(' ').at(-1)!.replace(/[.،,]$/, '')]);

/** Checks a Markdown reading of a page: its whole text in order within `target`, its lines' ends in order, the mixed line. */
function expectReadInOrder(reading: string, page: RtlPage, layout: 'document' | 'columns', markdown: string, target: number): void {
  const text = markdownText(markdown);
  const cer = characterErrorRate(rtlText(page, layout), text);
  measured.push({ reading, cer });
  expect(cer, `${reading}: character error rate of\n${markdown}`).toBeLessThanOrEqual(target);
  expect(positions(text, lineEnds(rtlText(page, layout))), `${reading}: the lines' first and last words in reading order in\n${markdown}`).not.toContain(-1);
  if (layout === 'document') {
    const [before, after, year] = page.mixedAnchors;
    // The mixed line: the word before the name, the name left to right, the words after it, the year last.
    const line = text.split('\n').find((candidate) => candidate.includes('Schmidt')) ?? '';
    expect(positions(line, [before, 'Maria Schmidt', after, year]), `${reading}: the mixed line "${line}"`).not.toContain(-1);
    expect(line.trim(), `${reading}: the mixed line ends with the year`).toMatch(new RegExp(`${year}\\.?$`));
  }
}

describe('right-to-left Markdown: reading order of Arabic and Hebrew (OCR and PDF)', () => {
  const pictures = new Map<string, string>();
  const scannedPdfs = new Map<string, string>();
  const printedPdfs = new Map<string, string>();
  const key = (page: RtlPage, layout: string) => `${page.code}-${layout}`;

  beforeAll(async () => {
    const engines = [await ocr.probe(), await poppler.probe(), await new Tesseract(new SandboxedProcessRunner()).probe()];
    const missing = engines.find((probe) => !probe.available);
    if (missing) {
      reportMissingEngine('OCR and poppler', missing.problem, [...OCR_DESCRIPTOR.debianPackages, ...POPPLER_DESCRIPTOR.debianPackages]);
      return;
    }
    for (const page of RTL_PAGES) {
      for (const layout of ['document', 'columns'] as const) {
        pictures.set(key(page, layout), await rtlPicture(dir, page, layout));
        printedPdfs.set(key(page, layout), await rtlPrintedPdf(dir, page, layout));
      }
      scannedPdfs.set(key(page, 'document'), await rtlScannedPdf(dir, page, 'document'));
    }
  }, 180_000);

  it('has OCR with Arabic and Hebrew, and poppler, installed', async () => {
    for (const probe of [await ocr.probe(), await poppler.probe()]) {
      expect(probe.problem).toBeUndefined();
      expect(probe.available).toBe(true);
    }
  });

  for (const page of RTL_PAGES) {
    const languages = [page.code, 'en'];

    it(`${page.name} picture → md: lines top to bottom, words right to left, the Latin name and year in place`, async () => {
      const [out] = (await convertStep(ocr, { inputPath: pictures.get(key(page, 'document'))!, from: 'png', to: 'md', options: { languages } }, dir, work)) as [string];
      expectReadInOrder(`${page.name} png → md`, page, 'document', readFileSync(out, 'utf8'), SCAN_TARGET);
    }, 120_000);

    it(`${page.name} picture of two columns → md: the right column first`, async () => {
      const [out] = (await convertStep(ocr, { inputPath: pictures.get(key(page, 'columns'))!, from: 'png', to: 'md', options: { languages } }, dir, work)) as [string];
      expectReadInOrder(`${page.name} png of two columns → md`, page, 'columns', readFileSync(out, 'utf8'), SCAN_TARGET);
    }, 120_000);

    it(`${page.name} scanned PDF → md (poppler reading its page by OCR): in reading order`, async () => {
      const [out] = (await convertStep(poppler, { inputPath: scannedPdfs.get(key(page, 'document'))!, from: 'pdf', to: 'md', options: { languages } }, dir, work)) as [string];
      expectReadInOrder(`${page.name} scanned pdf → md`, page, 'document', readFileSync(out, 'utf8'), SCAN_TARGET);
    }, 120_000);

    it(`${page.name} PDF with text → md: pdftohtml's drawn order read back, the right column first`, async () => {
      for (const layout of ['document', 'columns'] as const) {
        const [out] = (await convertStep(poppler, { inputPath: printedPdfs.get(key(page, layout))!, from: 'pdf', to: 'md' }, dir, work)) as [string];
        expectReadInOrder(`${page.name} printed pdf (${layout}) → md`, page, layout, readFileSync(out, 'utf8'), TEXT_TARGET);
      }
    }, 60_000);
  }
});
