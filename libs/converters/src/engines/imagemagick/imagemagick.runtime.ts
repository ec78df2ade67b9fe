import { holdsTransparency } from '@fileshift/formats';
import { stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { ConversionError } from '../../platform/conversion-error.js';
import { IMAGEMAGICK_DESCRIPTOR } from './imagemagick.descriptor.js';
import { probeVersions, throwIfEngineMissing } from '../../platform/engine-probe.js';
import { type EngineAvailability, type EngineRuntime, singleOutput, type StepContext, type StepOutcome, type StepRequest } from '../../platform/engine-runtime.js';
import { IMAGEMAGICK_POLICY } from './imagemagick-policy.js';
import { engineResourceDirectory } from '../../platform/sandbox/engine-resources.js';
import { SandboxedProcessRunner } from '../../platform/sandboxed-process.runner.js';

const PROBE_TIMEOUT_MS = 15_000;

/** The coder of each format: named on every input and output, so a file's content never chooses one (MVG, MSL…). */
const CODERS: Record<string, string> = {
  bmp: 'BMP', ico: 'ICO', tga: 'TGA', ppm: 'PPM', pgm: 'PGM', pbm: 'PBM', psd: 'PSD', jp2: 'JP2', heic: 'HEIC', pcx: 'PCX', xpm: 'XPM', png: 'PNG', jpg: 'JPEG',
};
/**
 * Transparency laid on white, for targets that hold none (@fileshift/formats' holdsTransparency): ImageMagick would
 * write PCX with a fourth plane few readers know, and a JPEG on black.
 */
const ON_WHITE = ['-background', 'white', '-alpha', 'remove', '-alpha', 'off'];
/**
 * Per target, what it needs beyond that: an icon holds at most 256×256; one bit per pixel is dithered in a halftone (a
 * threshold, and ImageMagick 6's -monochrome, turn a flat mid-tone all white).
 */
const OUTPUT_ARGS: Record<string, string[]> = {
  ico: ['-resize', '256x256>'],
  pbm: ['-colorspace', 'gray', '-ordered-dither', 'o8x8'],
};
const outputArgs = (to: string) => [...(holdsTransparency(to) ? [] : ON_WHITE), ...(OUTPUT_ARGS[to] ?? [])];

/** Raster images through ImageMagick 6 (Debian package), under our policy, inside the sandboxed runner. */
export class ImageMagickRuntime implements EngineRuntime {
  readonly descriptor = IMAGEMAGICK_DESCRIPTOR;
  private policyDir?: Promise<string>;

  private readonly runner: SandboxedProcessRunner;

  constructor(
    runner = new SandboxedProcessRunner(),
    private readonly convertCommand = 'convert',
    private readonly identifyCommand = 'identify',
  ) {
    // The worker's sandbox, with this engine's limits and socket policy.
    this.runner = runner.forEngine(IMAGEMAGICK_DESCRIPTOR);
  }

  probe(): Promise<EngineAvailability> {
    const checks = [{ command: this.convertCommand, args: ['-version'] }, { command: this.identifyCommand, args: ['-version'] }];
    return probeVersions(this.runner, checks, this.descriptor.debianPackages);
  }

  async convert(request: StepRequest, context: StepContext): Promise<StepOutcome> {
    const reader = CODERS[request.from];
    const writer = CODERS[request.to];
    if (!reader) throw new ConversionError('unsupported_or_corrupt_input', `This engine does not read ${request.from}.`);
    if (!writer || request.to === request.from) throw new ConversionError('unsupported_output_format', `This engine does not write ${request.to}.`);
    const outputPath = singleOutput(resolve(request.outputDir), request.to);
    // The first image of the file (a PSD's composite, an icon's first size), read by the coder we name.
    const input = `${reader}:${resolve(request.inputPath)}[0]`;
    await this.refuseOversized(input, request.from, context);
    const result = await this.runner.run({
      command: this.convertCommand,
      args: [
        input,
        '-auto-orient', '-strip', ...outputArgs(request.to),
        `${writer}:${outputPath}`,
      ],
      env: { MAGICK_CONFIGURE_PATH: await this.policy() },
      readOnlyPaths: [await this.policy()],
      scratchDir: context.workDir,
      timeoutMs: context.limits.timeoutMs,
      outputPath,
      maxOutputBytes: context.limits.maxOutputBytes,
      signal: context.signal,
    });
    throwIfEngineMissing(result, 'image');
    if (/not authorized|limit exceeded|too large|width or height exceeds/i.test(result.stderrTail)) {
      throw new ConversionError('security_rejected', 'The image declares more pixels or needs more memory than this service allows.', false, result.stderrTail);
    }
    const size = await stat(outputPath).then((s) => s.size, () => 0);
    if (result.exitCode !== 0 || size === 0) throw new ConversionError('unsupported_or_corrupt_input', `The input could not be read as a ${request.from} image.`, false, result.stderrTail);
    context.onProgress?.(100);
    return { files: [outputPath] };
  }

  /** Reads the header only (`identify -ping`) and refuses more pixels than `maxInputPixels` before decoding. */
  private async refuseOversized(input: string, from: string, context: StepContext): Promise<void> {
    const maxPixels = context.limits.maxInputPixels;
    if (maxPixels === undefined) return;
    const result = await this.runner.run({
      command: this.identifyCommand,
      args: ['-ping', '-format', '%w %h\n', input],
      env: { MAGICK_CONFIGURE_PATH: await this.policy() },
      readOnlyPaths: [await this.policy()],
      scratchDir: context.workDir,
      timeoutMs: Math.min(context.limits.timeoutMs, PROBE_TIMEOUT_MS),
      signal: context.signal,
    });
    const [width, height] = result.stdout.trim().split(/\s+/).map(Number) as [number, number];
    if (result.exitCode !== 0 || !(width > 0) || !(height > 0)) throw new ConversionError('unsupported_or_corrupt_input', `The input could not be read as a ${from} image.`, false, result.stderrTail);
    if (width * height > maxPixels) throw new ConversionError('security_rejected', `The image declares ${width}×${height} pixels, more than this service accepts (${maxPixels}).`);
  }

  /** The directory holding our policy.xml, written once. */
  private policy(): Promise<string> {
    this.policyDir ??= (async () => {
      const dir = await engineResourceDirectory('imagemagick');
      await writeFile(join(dir, 'policy.xml'), IMAGEMAGICK_POLICY, { mode: 0o644 });
      return dir;
    })();
    return this.policyDir;
  }
}
