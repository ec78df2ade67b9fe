import { stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { ConversionError } from '../../platform/conversion-error.js';
import { PANDOC_DESCRIPTOR, type PANDOC_READS, type PANDOC_WRITES } from './pandoc.descriptor.js';
import { probeVersions, throwIfEngineMissing } from '../../platform/engine-probe.js';
import { type EngineAvailability, type EngineRuntime, singleOutput, type StepContext, type StepOutcome, type StepRequest } from '../../platform/engine-runtime.js';
import { engineResourceDirectory } from '../../platform/sandbox/engine-resources.js';
import { SandboxedProcessRunner } from '../../platform/sandboxed-process.runner.js';

const PROBE_TIMEOUT_MS = 15_000;
/** pandoc's heap, capped by its runtime system: a hostile document fails instead of eating the machine. */
const MAX_HEAP = '1024m';

const READERS: Record<(typeof PANDOC_READS)[number], string> = {
  md: 'markdown',
  html: 'html',
  docx: 'docx',
  epub: 'epub',
  rst: 'rst',
  org: 'org',
  tex: 'latex',
  ipynb: 'ipynb',
};

/** Writer, and whether the output is a whole document (with its header) rather than a fragment. */
const WRITERS: Record<(typeof PANDOC_WRITES)[number], { writer: string; standalone: boolean }> = {
  // GitHub-flavoured: pipe tables and fenced code, what agents and renderers read best.
  md: { writer: 'gfm', standalone: false },
  html: { writer: 'html5', standalone: true },
  odt: { writer: 'odt', standalone: true },
  rtf: { writer: 'rtf', standalone: true },
  rst: { writer: 'rst', standalone: false },
  org: { writer: 'org', standalone: false },
  tex: { writer: 'latex', standalone: true },
  txt: { writer: 'plain', standalone: false },
  // Without --standalone: with it, a lone top heading becomes metadata that the notebook drops.
  ipynb: { writer: 'ipynb', standalone: false },
  // A whole FictionBook always; its pictures are the document's own (under --sandbox nothing is fetched).
  fb2: { writer: 'fb2', standalone: true },
};

/** Markup through pandoc (Debian package), always sandboxed, inside the sandboxed runner. */
export class PandocRuntime implements EngineRuntime {
  readonly descriptor = PANDOC_DESCRIPTOR;

  /** pandoc's own reference.odt, as a file: under --sandbox its odt writer finds its styles only there. */
  private referenceOdt?: Promise<string>;

  private readonly runner: SandboxedProcessRunner;

  constructor(
    runner = new SandboxedProcessRunner(),
    private readonly pandoc = 'pandoc',
  ) {
    // The worker's sandbox, with this engine's limits and socket policy.
    this.runner = runner.forEngine(PANDOC_DESCRIPTOR);
  }

  probe(): Promise<EngineAvailability> {
    return probeVersions(this.runner, [{ command: this.pandoc, args: ['--version'] }], this.descriptor.debianPackages);
  }

  async convert(request: StepRequest, context: StepContext): Promise<StepOutcome> {
    const reader = READERS[request.from as keyof typeof READERS];
    const output = WRITERS[request.to as keyof typeof WRITERS];
    if (!reader) throw new ConversionError('unsupported_or_corrupt_input', `This engine does not read ${request.from}.`);
    if (!output) throw new ConversionError('unsupported_output_format', `This engine does not write ${request.to}.`);
    const outputPath = singleOutput(request.outputDir, request.to);
    const referenceDoc = request.to === 'odt' ? await this.referenceDocument(context) : undefined;
    const result = await this.runner.run({
      command: this.pandoc,
      args: [
        '--sandbox', '--from', reader, '--to', output.writer, ...(output.standalone ? ['--standalone'] : []),
        ...(referenceDoc ? [`--reference-doc=${referenceDoc}`] : []),
        '--output', outputPath, request.inputPath,
        '+RTS', `-M${MAX_HEAP}`, '-RTS',
      ],
      scratchDir: context.workDir,
      readOnlyPaths: referenceDoc ? [dirname(referenceDoc)] : [],
      timeoutMs: context.limits.timeoutMs,
      outputPath,
      maxOutputBytes: context.limits.maxOutputBytes,
      signal: context.signal,
    });
    throwIfEngineMissing(result, 'markup');
    if (result.exitCode !== 0) throw new ConversionError('unsupported_or_corrupt_input', `The input could not be read as ${request.from}.`, false, result.stderrTail);
    const size = await stat(outputPath).then((s) => s.size, () => 0);
    if (size === 0) throw new ConversionError('unsupported_or_corrupt_input', `The input holds nothing that converts to ${request.to}.`, false, result.stderrTail);
    context.onProgress?.(100);
    return { files: [outputPath] };
  }

  private referenceDocument(context: StepContext): Promise<string> {
    this.referenceOdt ??= (async () => {
      const dir = await engineResourceDirectory('pandoc');
      const path = join(dir, 'reference.odt');
      const result = await this.runner.run({ command: this.pandoc, args: ['--output', path, '--print-default-data-file', 'reference.odt'], scratchDir: dir, timeoutMs: PROBE_TIMEOUT_MS, signal: context.signal });
      const size = await stat(path).then((s) => s.size, () => 0);
      if (result.exitCode !== 0 || size === 0) throw new ConversionError('provider_error', 'The markup engine is not available.', true, result.stderrTail);
      return path;
    })().catch((error: unknown) => {
      this.referenceOdt = undefined;
      throw error;
    });
    return this.referenceOdt;
  }
}
