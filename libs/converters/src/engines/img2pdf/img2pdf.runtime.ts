import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { ConversionError } from '../../platform/conversion-error.js';
import { IMG2PDF_DESCRIPTOR } from './img2pdf.descriptor.js';
import { NodeHostPool } from '../../platform/node-host/node-host.pool.js';
import type { ImagePagesTask } from './img2pdf.host-tasks.js';
import { probeVersions, throwIfEngineMissing } from '../../platform/engine-probe.js';
import { type EngineAvailability, type EngineRuntime, type JoinRequest, singleOutput, type StepContext, type StepOutcome, type StepRequest } from '../../platform/engine-runtime.js';
import { processLimitsOf } from '../../platform/sandbox/process-limits.js';
import { SandboxedProcessRunner, type SandboxedResult } from '../../platform/sandboxed-process.runner.js';
import { StepDeadline } from '../../platform/step-deadline.js';

/** The formats img2pdf takes. */
const READS = new Set(['jpg', 'png', 'tiff']);

/**
 * Images to PDF through img2pdf (Debian package), inside the sandboxed runner: the image data goes into the
 * PDF as it is (JPEG bytes unchanged, PNG/TIFF pixels losslessly), one page per image or TIFF frame.
 * sharp, in the Node host, reads the header first (no decoding): frames past `maxPages` and frames past
 * `maxInputPixels` are refused before img2pdf runs.
 *
 * Transparency: Debian 12's img2pdf 0.4.4 keeps an 8-bit alpha channel of a PNG as a soft mask, but refuses
 * alpha in TIFF and in 16-bit PNG. Those images are re-encoded by sharp as 8-bit RGBA PNG first (the alpha
 * is kept; a 16-bit image loses its extra depth) — the one case that is not bit-exact (see image-pages.ts).
 */
export class Img2pdfRuntime implements EngineRuntime {
  readonly descriptor = IMG2PDF_DESCRIPTOR;

  private readonly runner: SandboxedProcessRunner;

  constructor(
    runner = new SandboxedProcessRunner(),
    private readonly img2pdf = 'img2pdf',
    private readonly host = new NodeHostPool(),
  ) {
    // The worker's sandbox, with this engine's limits and socket policy.
    this.runner = runner.forEngine(IMG2PDF_DESCRIPTOR);
  }

  probe(): Promise<EngineAvailability> {
    return probeVersions(this.runner, [{ command: this.img2pdf, args: ['--version'] }], this.descriptor.debianPackages);
  }

  async convert(request: StepRequest, context: StepContext): Promise<StepOutcome> {
    if (request.to !== 'pdf' || !READS.has(request.from)) throw new ConversionError('unsupported_output_format', `This engine does not convert ${request.from} to ${request.to}.`);
    context.signal.throwIfAborted();
    const deadline = new StepDeadline(context.limits.timeoutMs);
    // Absolute paths: a file name starting with "-" never passes for an option.
    const inputPath = resolve(request.inputPath);
    const outputPath = singleOutput(resolve(request.outputDir), 'pdf');
    const tempDir = await mkdtemp(join(context.workDir, 'img2pdf-'));
    try {
      const { sources } = await this.pagesOf(inputPath, tempDir, context, deadline);
      const result = await this.img2pdfRun(sources, outputPath, context, deadline);
      if (result.exitCode !== 0) {
        await rm(outputPath, { force: true });
        throw new ConversionError('unsupported_or_corrupt_input', `The ${request.from} image could not be put into a PDF (it is damaged or of a kind img2pdf does not take).`, false, result.stderrTail);
      }
    } finally {
      await rm(tempDir, { recursive: true, force: true });
    }
    await assertWritten(outputPath);
    context.onProgress?.(100);
    return { files: [outputPath] };
  }

  /**
   * Pictures into one PDF, a page each (a page per frame of a TIFF), in order: each member checked as a conversion's
   * input is (its header, its pixels, its frames), then `maxPages` over them all, then one img2pdf run. A member that
   * fails is named.
   */
  async join(request: JoinRequest, context: StepContext): Promise<StepOutcome> {
    const other = request.members.find((member) => !READS.has(member.format));
    if (request.to !== 'pdf' || other) throw new ConversionError('unsupported_output_format', `This engine does not join ${other?.format ?? 'pictures'} into ${request.to}.`);
    if (request.members.length === 0) throw new ConversionError('unsupported_or_corrupt_input', 'There are no pictures to join.');
    context.signal.throwIfAborted();
    const deadline = new StepDeadline(context.limits.timeoutMs);
    const outputPath = singleOutput(resolve(request.outputDir), 'pdf');
    const tempDir = await mkdtemp(join(context.workDir, 'img2pdf-join-'));
    const naming = (index: number, error: unknown) => namingMember(error, index, request.members[index]!.name);
    try {
      const sources: string[][] = [];
      let pages = 0;
      for (const [index, member] of request.members.entries()) {
        const memberDir = join(tempDir, `member-${index + 1}`);
        await mkdir(memberDir);
        const read = await this.pagesOf(resolve(member.path), memberDir, context, deadline).catch((error: unknown) => {
          throw naming(index, error);
        });
        pages += read.frames;
        const maxPages = context.limits.maxPages;
        if (maxPages !== undefined && pages > maxPages) throw new ConversionError('file_too_large', `The pictures make more than ${maxPages} pages; at most ${maxPages} are made at a time.`);
        sources.push(read.sources);
        context.onProgress?.(Math.floor(((index + 1) / request.members.length) * 50));
      }
      const result = await this.img2pdfRun(sources.flat(), outputPath, context, deadline);
      if (result.exitCode !== 0) {
        await rm(outputPath, { force: true });
        // img2pdf names the file it could not take by its path: which member that was, img2pdf is asked of each alone.
        const failed = await this.firstRefused(sources, tempDir, context, deadline);
        const refusal = new ConversionError('unsupported_or_corrupt_input', 'The picture could not be put into a PDF (it is damaged or of a kind img2pdf does not take).', false, result.stderrTail);
        throw failed === undefined ? new ConversionError('unsupported_or_corrupt_input', 'The pictures could not be put into one PDF.', false, result.stderrTail) : naming(failed, refusal);
      }
    } finally {
      await rm(tempDir, { recursive: true, force: true });
    }
    await assertWritten(outputPath);
    context.onProgress?.(100);
    return { files: [outputPath] };
  }

  /** A picture's frames and the files img2pdf is to be given for it, read by sharp in the Node host (image-pages.ts). */
  private async pagesOf(inputPath: string, tempDir: string, context: StepContext, deadline: StepDeadline): Promise<{ frames: number; sources: string[] }> {
    const { files: copies, answer } = await this.host.run<ImagePagesTask>({
      task: 'image-pages',
      inputPaths: [inputPath],
      outputDir: tempDir,
      limits: context.limits,
      timeoutMs: deadline.remainingMs(),
      cpuSeconds: processLimitsOf(context.limits).cpuSeconds,
      signal: context.signal,
    });
    context.signal.throwIfAborted();
    return { frames: answer?.frames ?? 1, sources: copies.length > 0 ? copies : [inputPath] };
  }

  private async img2pdfRun(sources: string[], outputPath: string, context: StepContext, deadline: StepDeadline): Promise<SandboxedResult> {
    const result = await this.runner.run({
      command: this.img2pdf,
      // The internal PDF writer: the same output whether or not pikepdf is installed.
      args: ['--engine', 'internal', '-o', outputPath, ...sources],
      scratchDir: context.workDir,
      timeoutMs: deadline.remainingMs(),
      outputPath,
      maxOutputBytes: context.limits.maxOutputBytes,
      signal: context.signal,
    });
    throwIfEngineMissing(result, 'image to PDF');
    return result;
  }

  /** The index of the first member img2pdf refuses on its own, if any. */
  private async firstRefused(sources: string[][], tempDir: string, context: StepContext, deadline: StepDeadline): Promise<number | undefined> {
    for (const [index, files] of sources.entries()) {
      const trial = join(tempDir, `trial-${index + 1}.pdf`);
      const result = await this.img2pdfRun(files, trial, context, deadline);
      await rm(trial, { force: true });
      if (result.exitCode !== 0) return index;
    }
    return undefined;
  }
}

async function assertWritten(outputPath: string): Promise<void> {
  if (!((await stat(outputPath).catch(() => undefined))?.size ?? 0)) throw new ConversionError('unsupported_or_corrupt_input', 'The conversion produced no PDF.');
}

/** A member's failure, its message prefixed with which member it was, as the join's runner names one (the failure type stays). */
function namingMember(error: unknown, index: number, name: string): unknown {
  if (!(error instanceof ConversionError)) return error;
  return new ConversionError(error.failureType, `File ${index + 1} (${name}): ${error.message}`, error.retryable, error.diagnostics);
}
