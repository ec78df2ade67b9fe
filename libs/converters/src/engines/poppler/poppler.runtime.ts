import { mkdtemp, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { ConversionError } from '../../platform/conversion-error.js';
import { POPPLER_DESCRIPTOR } from './poppler.descriptor.js';
import { sampleDirectory, watchDirectory } from '../../platform/directory-size.watcher.js';
import { probeVersions, throwIfEngineMissing } from '../../platform/engine-probe.js';
import { type EngineAvailability, type EngineRuntime, pageOutput, singleOutput, type StepContext, type StepOutcome, type StepRequest } from '../../platform/engine-runtime.js';
import { pageRaster } from './page-raster.js';
import { appendWithPages, textlessPages } from './scanned-pages.js';
import { PdfPageOcr } from '../../shared/tesseract/pdf-page-ocr.js';
import { assertPermitted, type PdfInfo, PdfInfoReader } from '../../shared/pdf/pdf-info.reader.js';
import { pageRanges, pagesWithinLimit } from '../../shared/pdf/pdf-page-selection.js';
import { NodeHostPool } from '../../platform/node-host/node-host.pool.js';
import type { PdfTextTask } from './poppler.host-tasks.js';
import { processLimitsOf } from '../../platform/sandbox/process-limits.js';
import { SandboxedProcessRunner, type SandboxedResult } from '../../platform/sandboxed-process.runner.js';
import { StepDeadline } from '../../platform/step-deadline.js';

type Target = 'png' | 'jpg' | 'txt' | 'html' | 'md';
const TARGETS: readonly string[] = ['png', 'jpg', 'txt', 'html', 'md'] satisfies Target[];
const DEFAULT_JPEG_QUALITY = 80;
const RENDERED = /^render-(\d+)\.(?:png|jpg)$/;

export interface PopplerCommands {
  pdfinfo: string;
  pdftoppm: string;
  pdftotext: string;
  pdftohtml: string;
  /** Reads the pages that have no text (the OCR engine's). */
  tesseract: string;
}

const DEBIAN_COMMANDS: PopplerCommands = { pdfinfo: 'pdfinfo', pdftoppm: 'pdftoppm', pdftotext: 'pdftotext', pdftohtml: 'pdftohtml', tesseract: 'tesseract' };

/** What every conversion of one step shares. */
interface Job {
  inputPath: string;
  outputDir: string;
  request: StepRequest;
  context: StepContext;
  deadline: StepDeadline;
  info: PdfInfo;
  pages: number[];
}

/**
 * PDF pages to png/jpg (one file per page), text and HTML through poppler-utils, every binary inside the
 * sandboxed runner with arguments of our own. pdfinfo runs first: password-protected and unreadable PDFs,
 * PDFs whose permissions forbid copying, and page counts past `limits.maxPages` fail before anything is
 * rendered.
 */
export class PopplerRuntime implements EngineRuntime {
  readonly descriptor = POPPLER_DESCRIPTOR;
  private readonly info: PdfInfoReader;
  /** Reads the pages that have no text (scans) for the text and the Markdown. */
  private readonly ocr: PdfPageOcr;
  /** Where what pdftohtml writes is rewritten as Markdown or HTML. */
  private readonly host: NodeHostPool;
  private ownHost?: NodeHostPool;

  private readonly runner: SandboxedProcessRunner;

  constructor(
    runner = new SandboxedProcessRunner(),
    private readonly commands: PopplerCommands = DEBIAN_COMMANDS,
    host?: NodeHostPool,
  ) {
    this.host = host ?? (this.ownHost = new NodeHostPool({ size: 1 }));
    // The worker's sandbox, with this engine's limits and socket policy.
    this.runner = runner.forEngine(POPPLER_DESCRIPTOR);
    this.info = new PdfInfoReader(this.runner, commands.pdfinfo);
    this.ocr = new PdfPageOcr(runner, this.info, commands.pdftoppm, commands.tesseract);
  }

  /** Stops the Node host it made itself (none was given). */
  async stop(): Promise<void> {
    await this.ownHost?.stop();
  }

  probe(): Promise<EngineAvailability> {
    const { pdfinfo, pdftoppm, pdftotext, pdftohtml } = this.commands;
    return probeVersions(this.runner, [pdftoppm, pdfinfo, pdftotext, pdftohtml].map((command) => ({ command, args: ['-v'] })), this.descriptor.debianPackages);
  }

  async convert(request: StepRequest, context: StepContext): Promise<StepOutcome> {
    if (request.from !== 'pdf' || !TARGETS.includes(request.to)) throw new ConversionError('unsupported_output_format', `This engine does not convert ${request.from} to ${request.to}.`);
    context.signal.throwIfAborted();
    const deadline = new StepDeadline(context.limits.timeoutMs);
    // Absolute paths: a file name starting with "-" can never pass for an option.
    const inputPath = resolve(request.inputPath);
    const info = await this.info.read(inputPath, context, deadline);
    const pages = pagesWithinLimit(request.options.pages, info.pages, context.limits.maxPages);
    const job: Job = { inputPath, outputDir: resolve(request.outputDir), request, context, deadline, info, pages };
    assertPermitted(info, 'copy');
    const to = request.to as Target;
    const outcome = to === 'txt' ? await this.text(job) : to === 'html' ? await this.html(job) : to === 'md' ? await this.markdown(job) : await this.images(job, to);
    context.onProgress?.(100);
    return outcome;
  }

  /**
   * One pdftoppm run per range of consecutive pages scaled alike, into the output directory; a watcher
   * holds all the files written to the output cap and reports each finished page. The files are then
   * renamed page-00001… in page order.
   */
  private async images(job: Job, to: 'png' | 'jpg'): Promise<StepOutcome> {
    const { context, request, pages, outputDir } = job;
    const boxes = await this.info.read(job.inputPath, context, job.deadline, { first: pages[0]!, last: pages.at(-1)! });
    const runs: Array<{ first: number; last: number; scale: string[] }> = [];
    for (const page of pages) {
      const box = boxes.pageBoxes.get(page);
      if (!box || !(box.width > 0 && box.height > 0)) throw new ConversionError('unsupported_or_corrupt_input', `Page ${page} of the PDF has no size.`);
      const raster = pageRaster(box, request.options);
      const maxPixels = context.limits.maxPagePixels;
      if (maxPixels !== undefined && raster.width * raster.height > maxPixels) {
        throw new ConversionError('file_too_large', `Page ${page} would be ${raster.width} × ${raster.height} pixels; a page may have at most ${maxPixels} pixels: choose a lower dpi, or a width or height.`);
      }
      const run = runs.at(-1);
      if (run && run.last === page - 1 && run.scale.join(' ') === raster.args.join(' ')) run.last = page;
      else runs.push({ first: page, last: page, scale: raster.args });
    }
    const format = to === 'png' ? ['-png'] : ['-jpeg', '-jpegopt', `quality=${request.options.quality ?? DEFAULT_JPEG_QUALITY},optimize=y`];
    const files: string[] = [];
    try {
      for (const run of runs) {
        await this.renderRun(job, ['-cropbox', ...format, ...run.scale, '-f', String(run.first), '-l', String(run.last)], files.length);
        const rendered = (await sampleDirectory(outputDir)).names
          .map((name) => ({ name, page: Number(RENDERED.exec(name)?.[1]) }))
          .filter(({ page }) => Number.isInteger(page))
          .sort((a, b) => a.page - b.page);
        if (rendered.length !== run.last - run.first + 1) throw new ConversionError('unsupported_or_corrupt_input', `Pages ${run.first}–${run.last} of the PDF could not be rendered.`);
        for (const { name } of rendered) {
          const file = pageOutput(outputDir, files.length + 1, to);
          await rename(join(outputDir, name), file);
          files.push(file);
        }
      }
    } catch (error) {
      const leftovers = (await sampleDirectory(outputDir).catch(() => ({ names: [] as string[] }))).names.filter((name) => RENDERED.test(name));
      await Promise.all([...files, ...leftovers.map((name) => join(outputDir, name))].map((file) => rm(file, { force: true })));
      throw error;
    }
    return { files };
  }

  private async renderRun(job: Job, args: string[], pagesDone: number): Promise<void> {
    const { context, outputDir } = job;
    const cap = context.limits.maxOutputBytes;
    // Our own signal: the watcher aborts the run when the files together pass the output cap.
    const controller = new AbortController();
    const forward = () => controller.abort();
    context.signal.addEventListener('abort', forward, { once: true });
    if (context.signal.aborted) controller.abort();
    let overflow = false;
    let reported = -1;
    const stop = watchDirectory(outputDir, (sample) => {
      if (sample.bytes > cap) {
        overflow = true;
        controller.abort();
      }
      // A page's file appears when pdftoppm writes it: all but the newest are complete.
      const finished = pagesDone + Math.max(0, sample.names.filter((name) => RENDERED.test(name)).length - 1);
      const percent = Math.min(99, Math.floor((finished / job.pages.length) * 100));
      if (percent > reported) context.onProgress?.((reported = percent));
    });
    let result: SandboxedResult;
    try {
      result = await this.runner.run({
        command: this.commands.pdftoppm,
        args: [...args, job.inputPath, join(outputDir, 'render')],
        scratchDir: context.workDir,
        timeoutMs: job.deadline.remainingMs(),
        signal: controller.signal,
      });
    } catch (error) {
      if (overflow && !context.signal.aborted) throw outputTooLarge(cap);
      throw error;
    } finally {
      await stop();
      context.signal.removeEventListener('abort', forward);
    }
    if ((await sampleDirectory(outputDir)).bytes > cap) throw outputTooLarge(cap);
    throwIfEngineMissing(result, 'PDF');
    if (result.exitCode !== 0) throw new ConversionError('unsupported_or_corrupt_input', 'The PDF could not be rendered (it is damaged).', false, result.stderrTail);
  }

  /**
   * pdftotext -layout, one run per range of consecutive pages, appended in order into one UTF-8 file; each page ends
   * with a form feed, as pdftotext writes it. A page without text (a scan) is read by OCR in its place.
   */
  private async text(job: Job): Promise<StepOutcome> {
    const outputPath = singleOutput(job.outputDir, 'txt');
    await this.inTempDir(job, 'poppler-text-', async (tempDir) => {
      await writeFile(outputPath, '');
      const parts = await this.plainText(job, tempDir, ['-layout'], 50);
      const scanned = await this.readScans(job, parts, 'txt', tempDir);
      const replacements = new Map(await Promise.all(scanned.map(async ({ page, path }) => [page, await readFile(path, 'utf8')] as const)));
      for (const { path, first } of parts) {
        await appendWithPages(path, outputPath, first, replacements);
        if ((await stat(outputPath)).size > job.context.limits.maxOutputBytes) throw outputTooLarge(job.context.limits.maxOutputBytes);
      }
    }).catch(async (error: unknown) => {
      await rm(outputPath, { force: true });
      throw error;
    });
    return { files: [outputPath] };
  }

  /** pdftotext of the job's pages, one file per range of consecutive pages, each held to the output cap. */
  private async plainText(job: Job, tempDir: string, args: string[], progressUpTo: number): Promise<Array<{ path: string; first: number }>> {
    const parts: Array<{ path: string; first: number }> = [];
    let done = 0;
    for (const [index, [first, last]] of pageRanges(job.pages).entries()) {
      const path = join(tempDir, `text-${index + 1}.txt`);
      await this.runOrFail(job, this.commands.pdftotext, [...args, '-enc', 'UTF-8', '-f', String(first), '-l', String(last), job.inputPath, path], {
        outputPath: path,
        maxOutputBytes: job.context.limits.maxOutputBytes,
      });
      parts.push({ path, first });
      done += last - first + 1;
      job.context.onProgress?.(Math.min(progressUpTo, Math.floor((done / job.pages.length) * progressUpTo)));
    }
    return parts;
  }

  /** OCR of the pages whose text pdftotext found empty (scans), as text or as tesseract's TSV for the Markdown. */
  private async readScans(job: Job, parts: ReadonlyArray<{ path: string; first: number }>, output: 'txt' | 'tsv', tempDir: string) {
    const pages = (await Promise.all(parts.map(({ path, first }) => textlessPages(path, first)))).flat();
    if (pages.length === 0) return [];
    return this.ocr.read(job.inputPath, pages, output, job.request.options, job.context, job.deadline, tempDir, (done) =>
      job.context.onProgress?.(50 + Math.floor((done / pages.length) * 45)),
    );
  }

  /**
   * pdftohtml -s -noframes -i: one HTML file, text laid out as on the page, images left out (they would be
   * files beside it, or data URLs of every page's background), each part held to the output cap; every line then
   * goes through the sanitizer into one document with our own head.
   */
  private html(job: Job): Promise<StepOutcome> {
    return this.rewrittenText(job, 'html', ['-s', '-noframes', '-i', '-enc', 'UTF-8'], { extension: '.html', progressUpTo: 99, capOverAllParts: false });
  }

  /**
   * pdftohtml -xml -i: the text of the pages with positions, fonts, bold, italic and links, the parts together held
   * to the output cap; our own reader turns it into Markdown (headings, paragraphs, lists, tables, reading order).
   */
  private markdown(job: Job): Promise<StepOutcome> {
    return this.rewrittenText(job, 'md', ['-xml', '-i', '-enc', 'UTF-8'], { extension: '.xml', progressUpTo: 90, capOverAllParts: true, readScans: true });
  }

  /**
   * pdftohtml, one run per range of consecutive pages, then its parts rewritten by our own code (pdf-text.ts)
   * in a Node host: the PDF's text is the sender's, and no reader of it runs in the worker.
   */
  private async rewrittenText(job: Job, to: 'md' | 'html', args: string[], part: { extension: string; progressUpTo: number; capOverAllParts: boolean; readScans?: boolean }): Promise<StepOutcome> {
    const cap = job.context.limits.maxOutputBytes;
    let files: string[] = [];
    await this.inTempDir(job, `poppler-${to}-`, async (tempDir) => {
      const parts: string[] = [];
      let written = 0;
      let done = 0;
      for (const [index, [first, last]] of pageRanges(job.pages).entries()) {
        const base = join(tempDir, `part-${index + 1}`);
        await this.runOrFail(job, this.commands.pdftohtml, [...args, '-f', String(first), '-l', String(last), job.inputPath, base], {
          outputPath: `${base}${part.extension}`,
          maxOutputBytes: part.capOverAllParts ? cap - written : cap,
          onStdout: (chunk) => {
            done += chunk.split('\n').filter((line) => /^Page-\d+$/.test(line)).length;
            job.context.onProgress?.(Math.min(part.progressUpTo, Math.floor((done / job.pages.length) * part.progressUpTo)));
          },
        });
        written += (await stat(`${base}${part.extension}`)).size;
        parts.push(`${base}${part.extension}`);
      }
      // Pages without text (scans) read by OCR stand in for pdftohtml's empty ones.
      const scanned = part.readScans ? await this.readScans(job, await this.plainText(job, tempDir, [], part.progressUpTo), 'tsv', tempDir) : [];
      ({ files } = await this.host.run<PdfTextTask>({
        task: 'pdf-text',
        request: { to, title: job.info.title, ...(scanned.length > 0 ? { ocr: { tsvFiles: scanned.map(({ page, scale }) => ({ first: page, scale })) } } : {}) },
        inputPaths: [...parts, ...scanned.map(({ path }) => path)],
        outputDir: job.outputDir,
        limits: job.context.limits,
        timeoutMs: job.deadline.remainingMs(),
        cpuSeconds: processLimitsOf(job.context.limits).cpuSeconds,
        signal: job.context.signal,
      }));
    });
    return { files };
  }

  /** Runs one poppler tool on the input; a non-zero exit is a PDF poppler cannot read. */
  private async runOrFail(job: Job, command: string, args: string[], extra: { outputPath: string; maxOutputBytes: number; onStdout?: (chunk: string) => void }): Promise<void> {
    const result = await this.runner.run({
      command,
      args,
      scratchDir: job.context.workDir,
      timeoutMs: job.deadline.remainingMs(),
      signal: job.context.signal,
      ...extra,
    });
    throwIfEngineMissing(result, 'PDF');
    if (result.exitCode !== 0) throw new ConversionError('unsupported_or_corrupt_input', 'The PDF could not be read (it is damaged).', false, result.stderrTail);
  }

  /** A temporary directory of ours inside the job's scratch directory, removed afterwards. */
  private async inTempDir(job: Job, prefix: string, work: (dir: string) => Promise<void>): Promise<void> {
    const dir = await mkdtemp(join(job.context.workDir, prefix));
    try {
      await work(dir);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
}

const outputTooLarge = (cap: number) => new ConversionError('file_too_large', `The output grew past ${cap} bytes.`);
