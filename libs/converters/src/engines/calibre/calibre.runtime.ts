import { copyFile, link, mkdtemp, rename, rm, stat } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { ConversionError } from '../../platform/conversion-error.js';
import { CALIBRE_DESCRIPTOR } from './calibre.descriptor.js';
import { probeVersions, throwIfEngineMissing } from '../../platform/engine-probe.js';
import { type EngineAvailability, type EngineRuntime, singleOutput, type StepContext, type StepOutcome, type StepRequest } from '../../platform/engine-runtime.js';
import { NodeHostPool } from '../../platform/node-host/node-host.pool.js';
import { prepareInput } from '../../platform/node-host/prepare-input.js';
import type { CalibreInputTask } from './calibre.host-tasks.js';
import { SandboxedProcessRunner } from '../../platform/sandboxed-process.runner.js';

/** Output settings fixed by us: EPUB 3 without a generated cover, MOBI 6 (AZW3 is its own target), DOCX without a cover page. */
const OUTPUT_OPTIONS: Record<string, readonly string[]> = {
  epub: ['--epub-version', '3', '--no-default-epub-cover'],
  mobi: ['--mobi-file-type', 'old'],
  azw3: [],
  fb2: [],
  docx: ['--docx-no-cover'],
};
/** ebook-convert reports its stages as "34% Running transforms on e-book...". */
const PROGRESS = /^(\d{1,3})% /gm;

/**
 * E-books through calibre's ebook-convert in the sandboxed runner. The input is screened first (a ZIP
 * package's directory, an EPUB's SVG images, a DOCX's links to local files, an FB2's prolog); calibre picks its
 * reader and writer by file extension, so it reads `input.<format>` and writes `output.<format>` in a directory of
 * its own inside the job's, which is all its sandbox holds: a path a book names (calibre draws SVG images from
 * the machine's files) finds nothing of the job there — not its upload, not another step's files.
 */
export class CalibreRuntime implements EngineRuntime {
  readonly descriptor = CALIBRE_DESCRIPTOR;

  private readonly runner: SandboxedProcessRunner;
  /** Where inputs are screened (and DOCX cleaned) before calibre sees them. */
  private readonly host: NodeHostPool;
  private ownHost?: NodeHostPool;

  constructor(
    runner = new SandboxedProcessRunner(),
    private readonly ebookConvert = 'ebook-convert',
    host?: NodeHostPool,
  ) {
    // The worker's sandbox, with this engine's limits and socket policy.
    this.runner = runner.forEngine(CALIBRE_DESCRIPTOR);
    this.host = host ?? (this.ownHost = new NodeHostPool({ size: 1 }));
  }

  /** Stops the Node host it made itself (none was given). */
  async stop(): Promise<void> {
    await this.ownHost?.stop();
  }

  probe(): Promise<EngineAvailability> {
    return probeVersions(this.runner, [{ command: this.ebookConvert, args: ['--version'] }], this.descriptor.debianPackages);
  }

  async convert(request: StepRequest, context: StepContext): Promise<StepOutcome> {
    const { from, to } = request;
    if (!this.descriptor.pairs.some((pair) => pair.from === from && pair.to === to)) throw new ConversionError('unsupported_output_format', `This engine does not convert ${from} to ${to}.`);
    context.signal.throwIfAborted();
    const inputPath = resolve(request.inputPath);
    const dir = await mkdtemp(join(resolve(context.workDir), 'fileshift-calibre-'));
    // singleOutput is `output.<format>`: the extension picks calibre's writer; it is moved to the step's directory after.
    const outputPath = singleOutput(resolve(request.outputDir), to);
    const written = join(dir, basename(outputPath));
    try {
      // Screened, and perhaps cleaned, in a Node host; calibre picks its reader by the input's extension: the input
      // (or its cleaned copy, already named so) under a name of that format.
      const input = join(dir, `input.${from}`);
      const cleaned = await prepareInput<CalibreInputTask>(this.host, 'calibre-input', { ...request, inputPath }, context, dir);
      if (!cleaned) await link(inputPath, input).catch(() => copyFile(inputPath, input));
      let reported = 0;
      const result = await this.runner.run({
        command: this.ebookConvert,
        args: [input, written, ...OUTPUT_OPTIONS[to]!],
        // Its own directory is the one place calibre's sandbox binds: nothing else of the job is there.
        scratchDir: dir,
        timeoutMs: context.limits.timeoutMs,
        outputPath: written,
        maxOutputBytes: context.limits.maxOutputBytes,
        signal: context.signal,
        // No display: Qt, if calibre loads it, draws off screen.
        env: { QT_QPA_PLATFORM: 'offscreen' },
        onStdout: (chunk) => {
          for (const [, percent] of chunk.matchAll(PROGRESS)) {
            const value = Math.min(99, Number(percent));
            if (value > reported) context.onProgress?.((reported = value));
          }
        },
      });
      throwIfEngineMissing(result, 'e-book');
      const size = await stat(written).then((s) => s.size, () => 0);
      if (result.exitCode !== 0 || size === 0) {
        const drm = /DRM/.test(result.stderrTail + result.stdout);
        throw drm
          ? new ConversionError('security_rejected', 'The e-book is protected by DRM: it cannot be converted.', false, result.stderrTail)
          : new ConversionError('unsupported_or_corrupt_input', `The input could not be read as ${from}.`, false, result.stderrTail);
      }
      await rename(written, outputPath).catch(() => copyFile(written, outputPath));
    } catch (error) {
      await rm(outputPath, { force: true });
      throw error;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    context.onProgress?.(100);
    return { files: [outputPath] };
  }
}
