import { ArchivesRuntime } from './archives.runtime.js';
import { CalibreRuntime } from './calibre.runtime.js';
import { DataFormatsRuntime } from './data-formats.runtime.js';
import type { EngineAvailability, EngineRuntime } from './engine-runtime.js';
import { FfmpegAudioRuntime } from './ffmpeg-audio.runtime.js';
import { FfmpegSubtitlesRuntime } from './ffmpeg-subtitles.runtime.js';
import { FfmpegVideoRuntime } from './ffmpeg-video.runtime.js';
import { GhostscriptRuntime } from './ghostscript.runtime.js';
import { ImageMagickRuntime } from './imagemagick.runtime.js';
import { Img2pdfRuntime } from './img2pdf.runtime.js';
import { LibreOfficeRuntime, type LibreOfficeRuntimeOptions } from './libreoffice/libreoffice.runtime.js';
import { OfficeMarkdownRuntime } from './office-markdown.runtime.js';
import { PandocRuntime } from './pandoc.runtime.js';
import { PopplerRuntime } from './poppler.runtime.js';
import { SharpImageRuntime } from './sharp-image.runtime.js';

/** Settings of the runtimes that take any (from the worker's configuration); every one has a default. */
export interface EngineRuntimeOptions {
  /** Pool size, conversions per instance, start timeout, network isolation… (see LibreOfficeRuntimeOptions). */
  libreoffice?: LibreOfficeRuntimeOptions;
}

/** A runtime for every engine this build knows, in the descriptors' order of preference. */
export function createEngineRuntimes(options: EngineRuntimeOptions = {}): EngineRuntime[] {
  return [new SharpImageRuntime(), new ImageMagickRuntime(), new FfmpegAudioRuntime(), new FfmpegVideoRuntime(), new FfmpegSubtitlesRuntime(), new LibreOfficeRuntime(options.libreoffice), new PandocRuntime(), new CalibreRuntime(), new OfficeMarkdownRuntime(), new PopplerRuntime(), new GhostscriptRuntime(), new Img2pdfRuntime(), new DataFormatsRuntime(), new ArchivesRuntime()];
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
