import { mkdtemp, rm, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import sharp, { type Metadata } from 'sharp';
import { ConversionError } from './conversion-error.js';
import { IMG2PDF_DESCRIPTOR } from './descriptors/img2pdf.descriptor.js';
import { probeVersions, throwIfEngineMissing } from './engine-process.js';
import type { EngineLimits } from './engine-descriptor.js';
import { type EngineAvailability, type EngineRuntime, singleOutput, type StepContext, type StepOutcome, type StepRequest } from './engine-runtime.js';
import { SandboxedProcessRunner } from './sandboxed-process.runner.js';
import { StepDeadline } from './step-deadline.js';

/** sharp's names of the formats img2pdf takes, by our format id. */
const READS: Record<string, string> = { jpg: 'jpeg', png: 'png', tiff: 'tiff' };

interface ImageFacts {
  metadata: Metadata;
  frames: number;
}

/**
 * Images to PDF through img2pdf (Debian package), inside the sandboxed runner: the image data goes into the
 * PDF as it is (JPEG bytes unchanged, PNG/TIFF pixels losslessly), one page per image or TIFF frame.
 * sharp reads the header first (no decoding): frames past `maxPages` and frames past `maxInputPixels`
 * are refused before img2pdf runs.
 *
 * Transparency: Debian 12's img2pdf 0.4.4 keeps an 8-bit alpha channel of a PNG as a soft mask, but refuses
 * alpha in TIFF and in 16-bit PNG. Those images are re-encoded by sharp as 8-bit RGBA PNG first (the alpha
 * is kept; a 16-bit image loses its extra depth) — the one case that is not bit-exact.
 */
export class Img2pdfRuntime implements EngineRuntime {
  readonly descriptor = IMG2PDF_DESCRIPTOR;

  private readonly runner: SandboxedProcessRunner;

  constructor(
    runner = new SandboxedProcessRunner(),
    private readonly img2pdf = 'img2pdf',
  ) {
    // The worker's sandbox, with this engine's limits and socket policy.
    this.runner = runner.forEngine(IMG2PDF_DESCRIPTOR);
  }

  probe(): Promise<EngineAvailability> {
    return probeVersions(this.runner, [{ command: this.img2pdf, args: ['--version'] }], this.descriptor.debianPackages);
  }

  async convert(request: StepRequest, context: StepContext): Promise<StepOutcome> {
    if (request.to !== 'pdf' || !Object.hasOwn(READS, request.from)) throw new ConversionError('unsupported_output_format', `This engine does not convert ${request.from} to ${request.to}.`);
    context.signal.throwIfAborted();
    const deadline = new StepDeadline(context.limits.timeoutMs);
    // Absolute paths: a file name starting with "-" never passes for an option.
    const inputPath = resolve(request.inputPath);
    const outputPath = singleOutput(resolve(request.outputDir), 'pdf');
    const facts = await checkedImage(inputPath, context.limits);

    const tempDir = await mkdtemp(join(context.workDir, 'img2pdf-'));
    try {
      const needsAlphaCopy = facts.metadata.hasAlpha && (facts.metadata.format === 'tiff' || facts.metadata.depth !== 'uchar');
      const sources = needsAlphaCopy ? await eightBitRgbaCopies(inputPath, facts.frames, tempDir, context.limits, deadline) : [inputPath];
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

/** sharp reads the headers only: the format, each frame's size, the frame count, alpha and depth. */
async function checkedImage(path: string, limits: EngineLimits): Promise<ImageFacts> {
  const metadata = await sharp(path).metadata().catch((error: Error) => {
    throw new ConversionError('unsupported_or_corrupt_input', 'The input could not be read as an image.', false, error.message);
  });
  if (!Object.values(READS).includes(metadata.format ?? '')) throw new ConversionError('unsupported_or_corrupt_input', 'The input is not a jpg, png or tiff image.');
  const frames = metadata.pages ?? 1;
  if (limits.maxPages !== undefined && frames > limits.maxPages) {
    throw new ConversionError('file_too_large', `The image has ${frames} frames; at most ${limits.maxPages} pages are made at a time.`);
  }
  const sizes = frames === 1 ? [metadata] : await Promise.all(Array.from({ length: frames }, (_, page) => sharp(path, { page }).metadata()));
  const maxPixels = limits.maxInputPixels;
  if (maxPixels !== undefined && sizes.some(({ width = 0, height = 0 }) => width * height > maxPixels)) {
    throw new ConversionError('security_rejected', 'The image declares more pixels than this service accepts.');
  }
  return { metadata, frames };
}

/** Each frame as an 8-bit RGBA PNG, which img2pdf stores with its alpha as a soft mask. */
async function eightBitRgbaCopies(path: string, frames: number, dir: string, limits: EngineLimits, deadline: StepDeadline): Promise<string[]> {
  const copies: string[] = [];
  for (let page = 0; page < frames; page++) {
    const copy = join(dir, `frame-${page + 1}.png`);
    await sharp(path, { page, limitInputPixels: limits.maxInputPixels ?? true, failOn: 'error' })
      .timeout({ seconds: Math.max(1, Math.ceil(deadline.remainingMs() / 1000)) })
      .ensureAlpha()
      .toColourspace('srgb')
      .png()
      .toFile(copy)
      .catch((error: Error) => {
        throw new ConversionError('unsupported_or_corrupt_input', 'The image could not be decoded.', false, error.message);
      });
    copies.push(copy);
  }
  return copies;
}
