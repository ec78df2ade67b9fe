import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { ConversionError } from '../../platform/conversion-error.js';
import type { ConversionOptions } from '../../platform/conversion-options.js';
import { throwIfEngineMissing } from '../../platform/engine-probe.js';
import type { StepContext } from '../../platform/engine-runtime.js';
import type { SandboxedProcessRunner } from '../../platform/sandboxed-process.runner.js';
import type { StepDeadline } from '../../platform/step-deadline.js';
import type { PdfInfoReader } from '../pdf/pdf-info.reader.js';
import { OCR_PROFILE } from './ocr-profile.js';
import { Tesseract } from './tesseract.js';

/**
 * A scanned page is rendered at its picture's own resolution, within these bounds (tesseract reads small print
 * better from a picture twice a 72-dpi screenshot's size; past 300 dpi it gains nothing), and at most this many pixels.
 */
const MIN_DPI = 150;
const MAX_DPI = 300;
const MAX_PAGE_PIXELS = 50_000_000;
/** pdftohtml's XML is at 1.5 pixels a point: a TSV's pixels are scaled onto it. */
const PDFTOHTML_UNITS_PER_POINT = 1.5;

/** One page read by OCR: tesseract's output and how its pixels map onto pdftohtml's units. */
export interface ReadPage {
  page: number;
  path: string;
  scale: number;
}

/**
 * The pages of a PDF that have no text, read by OCR for its text or Markdown: each rendered grey by pdftoppm, then read
 * by tesseract (see Tesseract), every process in the engine sandbox under the OCR engine's limits. More scanned pages
 * than OCR reads in one conversion are refused before any is read.
 */
export class PdfPageOcr {
  private readonly runner: SandboxedProcessRunner;
  private readonly tesseract: Tesseract;

  constructor(
    runner: SandboxedProcessRunner,
    private readonly info: PdfInfoReader,
    private readonly pdftoppm = 'pdftoppm',
    tesseract = 'tesseract',
    private readonly pdfimages = 'pdfimages',
  ) {
    this.runner = runner.forEngine(OCR_PROFILE);
    this.tesseract = new Tesseract(runner, tesseract);
  }

  async read(inputPath: string, pages: readonly number[], output: 'txt' | 'tsv', options: ConversionOptions, context: StepContext, deadline: StepDeadline, tempDir: string, onPage?: (done: number) => void): Promise<ReadPage[]> {
    const maxPages = OCR_PROFILE.limits.maxPages;
    if (pages.length > maxPages) {
      throw new ConversionError('file_too_large', `The PDF has ${pages.length} pages without text; OCR reads at most ${maxPages} of them at a time: choose pages with the pages option.`);
    }
    const { pageBoxes } = await this.info.read(inputPath, context, deadline, { first: pages[0]!, last: pages.at(-1)! });
    let languages: string | undefined;
    const read: ReadPage[] = [];
    for (const page of pages) {
      const box = pageBoxes.get(page);
      if (!box || !(box.width > 0 && box.height > 0)) throw new ConversionError('unsupported_or_corrupt_input', `Page ${page} of the PDF has no size.`);
      const resolution = Math.min(MAX_DPI, Math.max(MIN_DPI, (await this.pictureResolution(inputPath, page, context, deadline)) ?? MAX_DPI));
      const dpi = Math.min(resolution, Math.floor(Math.sqrt(MAX_PAGE_PIXELS / ((box.width / 72) * (box.height / 72)))));
      const picture = await this.render(inputPath, page, dpi, context, deadline, tempDir);
      languages ??= await this.tesseract.languagesFor(options, async () => picture, context, deadline);
      const base = join(tempDir, `page-${page}`);
      await this.tesseract.read([picture], base, languages, [output], context, deadline);
      await rm(picture, { force: true });
      read.push({ page, path: `${base}.${output}`, scale: (PDFTOHTML_UNITS_PER_POINT * 72) / dpi });
      onPage?.(read.length);
    }
    return read;
  }

  /** The resolution of the page's sharpest picture (pdfimages -list), or undefined when it has none. */
  private async pictureResolution(inputPath: string, page: number, context: StepContext, deadline: StepDeadline): Promise<number | undefined> {
    const result = await this.runner.run({
      command: this.pdfimages,
      args: ['-list', '-f', String(page), '-l', String(page), inputPath],
      scratchDir: context.workDir,
      timeoutMs: deadline.remainingMs(),
      signal: context.signal,
    });
    throwIfEngineMissing(result, 'PDF');
    // page num type width height color comp bpc enc interp object ID x-ppi y-ppi size ratio
    const resolutions = result.stdout
      .split('\n')
      .map((line) => line.trim().split(/\s+/))
      .filter((cells) => cells[2] === 'image' && Number(cells[0]) === page)
      .map((cells) => Math.max(Number(cells[12]), Number(cells[13])))
      .filter((ppi) => Number.isFinite(ppi) && ppi > 0);
    return resolutions.length > 0 ? Math.max(...resolutions) : undefined;
  }

  private async render(inputPath: string, page: number, dpi: number, context: StepContext, deadline: StepDeadline, tempDir: string): Promise<string> {
    const base = join(tempDir, `scan-${page}`);
    const result = await this.runner.run({
      command: this.pdftoppm,
      args: ['-r', String(dpi), '-gray', '-png', '-cropbox', '-f', String(page), '-l', String(page), '-singlefile', inputPath, base],
      scratchDir: context.workDir,
      timeoutMs: deadline.remainingMs(),
      signal: context.signal,
    });
    throwIfEngineMissing(result, 'PDF');
    if (result.exitCode !== 0) throw new ConversionError('unsupported_or_corrupt_input', `Page ${page} of the PDF could not be rendered (it is damaged).`, false, result.stderrTail);
    return `${base}.png`;
  }
}
