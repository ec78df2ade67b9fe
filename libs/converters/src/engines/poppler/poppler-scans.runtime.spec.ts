import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NodeHostPool } from '../../platform/node-host/node-host.pool.js';
import { OCR_DESCRIPTOR } from '../ocr/ocr.descriptor.js';
import { POPPLER_DESCRIPTOR } from './poppler.descriptor.js';
import { PopplerRuntime } from './poppler.runtime.js';
import { convertStep, expectFailure, leftovers, testContext } from '../../../test/support/test-context.js';
import { characterErrorRate, manyScannedPagesPdf, mixedPdf, PRINTED_PAGE, REPORT_PAGES, scannedReportPdf } from '../../../testing/ocr-samples.js';
import { reportMissingEngine, run } from '../../../testing/pdf-samples.js';
import { Tesseract } from '../../shared/tesseract/tesseract.js';
import { SandboxedProcessRunner } from '../../platform/sandboxed-process.runner.js';

const workRoot = mkdtempSync(join(tmpdir(), 'fileshift-poppler-scans-work-'));
// The test's files live in the engine's scratch directory, as a job's input does: only it is bound into the sandbox.
const dir = mkdtempSync(join(workRoot, 'files-'));
const host = new NodeHostPool({ size: 1 });
const work = { workDir: workRoot };

const measured: Array<{ reading: string; cer: number }> = [];
afterAll(async () => {
  console.log(`\nOCR character error rates (poppler)\n${measured.map(({ reading, cer }) => `  ${reading.padEnd(40)} ${(cer * 100).toFixed(2).padStart(6)} %`).join('\n')}\n`);
  await host.stop();
  rmSync(workRoot, { recursive: true, force: true });
});

/** Asserts that `actual` reads `expected` within 5 % of its characters, and records the rate. */
function expectScanRead(reading: string, expected: string, actual: string): void {
  const cer = characterErrorRate(expected, actual);
  measured.push({ reading, cer });
  expect(cer, `${reading}: character error rate of\n${actual}`).toBeLessThanOrEqual(0.05);
}

/** The text of Markdown without its escapes and heading marks. */
const markdownText = (markdown: string) => markdown.replace(/^#{1,6}\s+/gm, '').replace(/\\([\\`*_{}[\]()#+\-.!|<>])/g, '$1');

describe('PopplerRuntime with scanned pages (OCR by tesseract)', () => {
  const runtime = new PopplerRuntime(undefined, undefined, host);
  let mixed = '';
  let scannedReport = '';
  let scanned51 = '';

  beforeAll(async () => {
    const poppler = await runtime.probe();
    const tesseract = await new Tesseract(new SandboxedProcessRunner()).probe();
    if (!poppler.available || !tesseract.available) {
      reportMissingEngine('poppler with OCR', poppler.problem ?? tesseract.problem, [...POPPLER_DESCRIPTOR.debianPackages, ...OCR_DESCRIPTOR.debianPackages]);
      return;
    }
    mixed = await mixedPdf(dir);
    scannedReport = await scannedReportPdf(dir);
    scanned51 = await manyScannedPagesPdf(dir, 51);
  }, 180_000);

  it('has poppler and tesseract with its languages installed', async () => {
    expect((await runtime.probe()).available).toBe(true);
    const tesseract = await new Tesseract(new SandboxedProcessRunner()).probe();
    expect(tesseract.problem).toBeUndefined();
    expect(tesseract.available).toBe(true);
  });

  describe('pdf → txt', () => {
    it("keeps a text page's text exactly as pdftotext gives it, and reads the scanned page in its place", async () => {
      const [out] = (await convertStep(runtime, { inputPath: mixed, from: 'pdf', to: 'txt' }, dir, work)) as [string];
      const pages = readFileSync(out, 'utf8').split('\f');
      expect(pages).toHaveLength(3);
      expect(pages[2]).toBe('');
      const pageOne = run('pdftotext', ['-layout', '-enc', 'UTF-8', '-f', '1', '-l', '1', mixed, '-']).split('\f')[0];
      expect(pageOne).toContain(PRINTED_PAGE[0]);
      expect(pages[0]).toBe(pageOne);
      expectScanRead('mixed PDF → txt, the scanned page', REPORT_PAGES[0], pages[1]!);
      expect(leftovers(workRoot, dir)).toEqual([]);
    }, 120_000);

    it('reads only the scanned pages asked for', async () => {
      const [out] = (await convertStep(runtime, { inputPath: mixed, from: 'pdf', to: 'txt', options: { pages: '2' } }, dir, work)) as [string];
      const text = readFileSync(out, 'utf8');
      expect(text).not.toContain('Printed page');
      expectScanRead('mixed PDF → txt, pages: "2"', REPORT_PAGES[0], text);
    }, 120_000);

    it('reads a scanned PDF of three pages, each in its place', async () => {
      const [out] = (await convertStep(runtime, { inputPath: scannedReport, from: 'pdf', to: 'txt' }, dir, work)) as [string];
      const pages = readFileSync(out, 'utf8').split('\f');
      expect(pages).toHaveLength(4);
      for (const [index, text] of REPORT_PAGES.entries()) expectScanRead(`scanned PDF → txt, page ${index + 1}`, text, pages[index]!);
    }, 180_000);

    it('refuses more scanned pages than OCR reads at a time, naming 50, and leaves no output', async () => {
      const outputDir = join(dir, 'refused-txt');
      mkdirSync(outputDir);
      const error = await expectFailure(runtime.convert({ inputPath: scanned51, outputDir, from: 'pdf', to: 'txt', options: {} }, testContext(runtime, workRoot)), 'file_too_large', dir);
      expect(error.message).toMatch(/\b50\b/);
      expect(readdirSync(outputDir)).toEqual([]);
      expect(leftovers(workRoot, dir)).toEqual([]);
    });
  });

  describe('pdf → md', () => {
    it("has the text page's text and the scanned page's", async () => {
      const [out] = (await convertStep(runtime, { inputPath: mixed, from: 'pdf', to: 'md' }, dir, work)) as [string];
      const text = markdownText(readFileSync(out, 'utf8'));
      for (const sentence of PRINTED_PAGE) expect(text.replace(/\s+/g, ' ')).toContain(sentence);
      const scanned = text.slice(text.indexOf('Page one.'));
      expect(text.indexOf('Page one.')).toBeGreaterThan(text.indexOf(PRINTED_PAGE[1].slice(-20)));
      expectScanRead('mixed PDF → md, the scanned page', REPORT_PAGES[0], scanned);
      expect(leftovers(workRoot, dir)).toEqual([]);
    }, 120_000);
  });
});
