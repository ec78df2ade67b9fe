import { mkdtemp, rename, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { ConversionError } from '../../platform/conversion-error.js';
import { probeVersions, throwIfEngineMissing } from '../../platform/engine-probe.js';
import { type EngineAvailability, type EngineRuntime, singleOutput, type StepContext, type StepOutcome, type StepRequest } from '../../platform/engine-runtime.js';
import { NodeHostPool } from '../../platform/node-host/node-host.pool.js';
import { processLimitsOf } from '../../platform/sandbox/process-limits.js';
import { SandboxedProcessRunner } from '../../platform/sandboxed-process.runner.js';
import { StepDeadline } from '../../platform/step-deadline.js';
import { assertPermitted, PdfInfoReader } from '../../shared/pdf/pdf-info.reader.js';
import { pagesWithinLimit } from '../../shared/pdf/pdf-page-selection.js';
import { OCR_DESCRIPTOR, OCR_IMAGE_SOURCES } from './ocr.descriptor.js';
import type { OcrMarkdownTask, OcrPagesTask } from './ocr.host-tasks.js';
import { segmentationOf, Tesseract } from '../../shared/tesseract/tesseract.js';

/** Resolution of the page OCRmyPDF's language detection looks at: enough for tesseract to tell a script. */
const SAMPLE_DPI = '150';

export interface OcrCommands {
  tesseract: string;
  ocrmypdf: string;
  pdfinfo: string;
  pdftoppm: string;
}

const DEBIAN_COMMANDS: OcrCommands = { tesseract: 'tesseract', ocrmypdf: 'ocrmypdf', pdfinfo: 'pdfinfo', pdftoppm: 'pdftoppm' };

/**
 * OCR, every process in the engine sandbox: pictures to text, Markdown or a searchable PDF through tesseract (sharp
 * in the Node host checks and, where needed, flattens them first), and a PDF made searchable through OCRmyPDF, which
 * reads only the pages that have no text (--skip-text), turns pages upright and straightens skewed ones.
 */
export class OcrRuntime implements EngineRuntime {
  readonly descriptor = OCR_DESCRIPTOR;
  private readonly runner: SandboxedProcessRunner;
  private readonly tesseract: Tesseract;
  private readonly info: PdfInfoReader;

  constructor(
    runner = new SandboxedProcessRunner(),
    private readonly host = new NodeHostPool(),
    private readonly commands: OcrCommands = DEBIAN_COMMANDS,
  ) {
    this.runner = runner.forEngine(OCR_DESCRIPTOR);
    this.tesseract = new Tesseract(runner, commands.tesseract);
    this.info = new PdfInfoReader(this.runner, commands.pdfinfo);
  }

  async probe(): Promise<EngineAvailability> {
    const tesseract = await this.tesseract.probe();
    if (!tesseract.available) return tesseract;
    const others = await probeVersions(this.runner, [{ command: this.commands.ocrmypdf, args: ['--version'] }, { command: this.commands.pdfinfo, args: ['-v'] }], this.descriptor.debianPackages);
    if (!others.available) return others;
    return { available: true, version: `${tesseract.version}, OCRmyPDF ${others.version}` };
  }

  async convert(request: StepRequest, context: StepContext): Promise<StepOutcome> {
    const picture = (OCR_IMAGE_SOURCES as readonly string[]).includes(request.from) && ['txt', 'md', 'pdf'].includes(request.to);
    if (!picture && !(request.from === 'pdf' && request.to === 'pdf')) throw new ConversionError('unsupported_output_format', `This engine does not convert ${request.from} to ${request.to}.`);
    context.signal.throwIfAborted();
    const deadline = new StepDeadline(context.limits.timeoutMs);
    const tempDir = await mkdtemp(join(context.workDir, 'ocr-'));
    try {
      const files = picture ? await this.readPicture(request, context, deadline, tempDir) : await this.searchablePdf(request, context, deadline, tempDir);
      context.onProgress?.(100);
      return { files };
    } finally {
      await rm(tempDir, { recursive: true, force: true });
    }
  }

  /** A picture (every page of a TIFF) read by tesseract: its text, its Markdown from the words' layout, or a searchable PDF. */
  private async readPicture(request: StepRequest, context: StepContext, deadline: StepDeadline, tempDir: string): Promise<string[]> {
    const inputPath = resolve(request.inputPath);
    const outputDir = resolve(request.outputDir);
    const { files: copies } = await this.host.run<OcrPagesTask>({
      task: 'ocr-pages',
      inputPaths: [inputPath],
      outputDir: tempDir,
      limits: context.limits,
      timeoutMs: deadline.remainingMs(),
      cpuSeconds: processLimitsOf(context.limits).cpuSeconds,
      signal: context.signal,
    });
    const pictures = copies.length > 0 ? copies : [inputPath];
    const languages = await this.tesseract.languagesFor(request.options, async () => pictures[0]!, context, deadline);
    context.onProgress?.(5);
    const base = join(tempDir, 'read');
    if (request.to === 'md') {
      await this.tesseract.read(pictures, base, languages, ['tsv'], context, deadline);
      context.onProgress?.(90);
      const { files } = await this.host.run<OcrMarkdownTask>({
        task: 'ocr-markdown',
        inputPaths: [`${base}.tsv`],
        outputDir,
        limits: context.limits,
        timeoutMs: deadline.remainingMs(),
        cpuSeconds: processLimitsOf(context.limits).cpuSeconds,
        signal: context.signal,
      });
      return files;
    }
    const to = request.to as 'txt' | 'pdf';
    await this.tesseract.read(pictures, base, languages, [to], context, deadline);
    const output = singleOutput(outputDir, to);
    await rename(`${base}.${to}`, output);
    return [output];
  }

  /** OCRmyPDF: the pages without text get an invisible text layer; pages with text are left as they are. */
  private async searchablePdf(request: StepRequest, context: StepContext, deadline: StepDeadline, tempDir: string): Promise<string[]> {
    const inputPath = resolve(request.inputPath);
    const outputPath = singleOutput(resolve(request.outputDir), 'pdf');
    const info = await this.info.read(inputPath, context, deadline);
    assertPermitted(info, 'rewrite');
    pagesWithinLimit(undefined, info.pages, context.limits.maxPages);
    const languages = await this.tesseract.languagesFor(request.options, () => this.firstPagePicture(inputPath, context, deadline, tempDir), context, deadline);
    context.onProgress?.(5);
    const result = await this.runner.run({
      command: this.commands.ocrmypdf,
      args: ['--skip-text', '--rotate-pages', '--deskew', '--output-type', 'pdf', '--optimize', '0', '--jobs', '1', '-l', languages, '--tesseract-pagesegmode', segmentationOf(languages), inputPath, outputPath],
      scratchDir: context.workDir,
      timeoutMs: deadline.remainingMs(),
      outputPath,
      maxOutputBytes: context.limits.maxOutputBytes,
      signal: context.signal,
    });
    throwIfEngineMissing(result, 'OCR');
    if (result.exitCode !== 0) {
      await rm(outputPath, { force: true });
      throw new ConversionError('unsupported_or_corrupt_input', 'The PDF could not be made searchable (it is damaged or not supported).', false, result.stderrTail);
    }
    return [outputPath];
  }

  /** The PDF's first page, rendered small for tesseract's script detection. */
  private async firstPagePicture(inputPath: string, context: StepContext, deadline: StepDeadline, tempDir: string): Promise<string> {
    const sample = join(tempDir, 'sample');
    const result = await this.runner.run({
      command: this.commands.pdftoppm,
      args: ['-r', SAMPLE_DPI, '-gray', '-png', '-f', '1', '-l', '1', '-singlefile', inputPath, sample],
      scratchDir: context.workDir,
      timeoutMs: deadline.remainingMs(),
      signal: context.signal,
    });
    throwIfEngineMissing(result, 'PDF');
    if (result.exitCode !== 0) throw new ConversionError('unsupported_or_corrupt_input', 'The PDF could not be read (it is damaged).', false, result.stderrTail);
    return `${sample}.png`;
  }
}
