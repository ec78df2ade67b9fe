import { ArchivesRuntime } from './archives.runtime.js';
import { CalibreRuntime } from './calibre.runtime.js';
import { DATA_DESCRIPTOR } from './descriptors/data.descriptor.js';
import { OFFICE_MARKDOWN_DESCRIPTOR } from './descriptors/office-markdown.descriptor.js';
import { SHARP_DESCRIPTOR } from './descriptors/sharp.descriptor.js';
import { NodeHostPool, type NodeHostPoolOptions } from './node-host/node-host.pool.js';
import { NodeHostedRuntime } from './node-host/node-hosted.runtime.js';
import type { EngineAvailability, EngineRuntime } from './engine-runtime.js';
import { FfmpegAudioRuntime } from './ffmpeg-audio.runtime.js';
import { FfmpegSubtitlesRuntime } from './ffmpeg-subtitles.runtime.js';
import { FfmpegVideoRuntime } from './ffmpeg-video.runtime.js';
import { GhostscriptRuntime } from './ghostscript.runtime.js';
import { ImageMagickRuntime } from './imagemagick.runtime.js';
import { Img2pdfRuntime } from './img2pdf.runtime.js';
import { LibreOfficeRuntime, type LibreOfficeRuntimeOptions } from './libreoffice/libreoffice.runtime.js';
import { PandocRuntime } from './pandoc.runtime.js';
import { PopplerRuntime } from './poppler.runtime.js';
import { defaultEngineSandbox, type EngineSandbox } from './sandbox/engine-sandbox.js';
import { SandboxedProcessRunner } from './sandboxed-process.runner.js';

/** Settings of the runtimes that take any (from the worker's configuration); every one has a default. */
export interface EngineRuntimeOptions {
  /** The worker's engine sandbox (from ENGINE_SANDBOX); default: this machine's, required. */
  sandbox?: EngineSandbox | Promise<EngineSandbox>;
  /** Where warm engines keep their directories: the jobs' scratch root, so inputs are staged by hard links. */
  workRoot?: string;
  /** Pool size, conversions per instance, start timeout… (see LibreOfficeRuntimeOptions). */
  libreoffice?: Omit<LibreOfficeRuntimeOptions, 'sandbox' | 'workRoot' | 'nodeHost'>;
  /** Node hosts (sharp, the data and Office readers): pool size… */
  nodeHost?: Omit<NodeHostPoolOptions, 'sandbox' | 'workRoot'>;
}

/**
 * A runtime for every engine this build knows, in the descriptors' order of preference, all in one engine sandbox:
 * processes started per conversion go through one runner, warm ones (LibreOffice, the Node host) through pools.
 */
export function createEngineRuntimes(options: EngineRuntimeOptions = {}): EngineRuntime[] {
  const sandbox = Promise.resolve(options.sandbox ?? defaultEngineSandbox());
  const runner = new SandboxedProcessRunner(undefined, sandbox);
  const host = new NodeHostPool({ ...options.nodeHost, sandbox, workRoot: options.workRoot });
  return [
    new NodeHostedRuntime(SHARP_DESCRIPTOR, 'sharp', host),
    new ImageMagickRuntime(runner),
    new FfmpegAudioRuntime(runner),
    new FfmpegVideoRuntime(runner),
    new FfmpegSubtitlesRuntime(runner),
    new LibreOfficeRuntime({ ...options.libreoffice, sandbox, workRoot: options.workRoot, nodeHost: host }),
    new PandocRuntime(runner),
    new CalibreRuntime(runner, undefined, host),
    new NodeHostedRuntime(OFFICE_MARKDOWN_DESCRIPTOR, 'office-markdown', host),
    new PopplerRuntime(runner, undefined, host),
    new GhostscriptRuntime(runner),
    new Img2pdfRuntime(runner, undefined, host),
    new NodeHostedRuntime(DATA_DESCRIPTOR, 'data', host),
    new ArchivesRuntime(runner),
  ];
}

export interface ProbedEngines {
  /** The runtimes whose probe succeeded, by engine id. */
  available: Map<string, EngineRuntime>;
  versions: Record<string, string | undefined>;
  /** The others, with why, and the Debian packages that would add them. */
  missing: Array<{ id: string; problem: string; debianPackages: readonly string[] }>;
}

/** Probes every runtime (I/O); a probe that throws counts as an engine that is not there. */
export async function probeEngines(runtimes: readonly EngineRuntime[]): Promise<ProbedEngines> {
  const probed = await Promise.all(
    runtimes.map(async (runtime) => ({
      runtime,
      availability: await runtime.probe().catch((error: Error): EngineAvailability => ({ available: false, problem: error.message })),
    })),
  );
  return {
    available: new Map(probed.filter((p) => p.availability.available).map((p) => [p.runtime.descriptor.id, p.runtime])),
    versions: Object.fromEntries(probed.filter((p) => p.availability.available).map((p) => [p.runtime.descriptor.id, p.availability.version])),
    missing: probed
      .filter((p) => !p.availability.available)
      .map((p) => ({ id: p.runtime.descriptor.id, problem: p.availability.problem ?? 'not available', debianPackages: p.runtime.descriptor.debianPackages })),
  };
}
