import { mkdtemp, rm, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { ConversionError } from '../../platform/conversion-error.js';
import { IMG2PDF_DESCRIPTOR } from './img2pdf.descriptor.js';
import { NodeHostPool } from '../../platform/node-host/node-host.pool.js';
import type { ImagePagesTask } from './img2pdf.host-tasks.js';
import { probeVersions, throwIfEngineMissing } from '../../platform/engine-probe.js';
import { type EngineAvailability, type EngineRuntime, singleOutput, type StepContext, type StepOutcome, type StepRequest } from '../../platform/engine-runtime.js';
import { processLimitsOf } from '../../platform/sandbox/process-limits.js';
import { SandboxedProcessRunner } from '../../platform/sandboxed-process.runner.js';
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
      const { files: copies } = await this.host.run<ImagePagesTask>({
        task: 'image-pages',
        inputPaths: [inputPath],
        outputDir: tempDir,
        limits: context.limits,
        timeoutMs: deadline.remainingMs(),
        cpuSeconds: processLimitsOf(context.limits).cpuSeconds,
        signal: context.signal,
      });
      const sources = copies.length > 0 ? copies : [inputPath];
      context.signal.throwIfAborted();
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
      if (result.exitCode !== 0) {
        await rm(outputPath, { force: true });
        throw new ConversionError('unsupported_or_corrupt_input', `The ${request.from} image could not be put into a PDF (it is damaged or of a kind img2pdf does not take).`, false, result.stderrTail);
      }
    } finally {
      await rm(tempDir, { recursive: true, force: true });
    }
    if (!((await stat(outputPath).catch(() => undefined))?.size ?? 0)) throw new ConversionError('unsupported_or_corrupt_input', 'The conversion produced no PDF.');
    context.onProgress?.(100);
    return { files: [outputPath] };
  }
}
