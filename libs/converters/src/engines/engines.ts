import type { EngineDescriptor } from '../platform/engine-descriptor.js';
import type { EngineRuntime } from '../platform/engine-runtime.js';
import type { NodeHostPool } from '../platform/node-host/node-host.pool.js';
import type { EngineSandbox } from '../platform/sandbox/engine-sandbox.js';
import type { SandboxedProcessRunner } from '../platform/sandboxed-process.runner.js';
import { ARCHIVES_DESCRIPTOR } from './archives/archives.descriptor.js';
import { CALIBRE_DESCRIPTOR } from './calibre/calibre.descriptor.js';
import { CHROMIUM_DESCRIPTOR } from './chromium/chromium.descriptor.js';
import type { ChromiumRuntimeOptions } from './chromium/chromium.runtime.js';
import { DATA_DESCRIPTOR } from './data/data.descriptor.js';
import { EXIFTOOL_DESCRIPTOR } from './exiftool/exiftool.descriptor.js';
import { FFMPEG_AUDIO_DESCRIPTOR } from './ffmpeg/ffmpeg-audio.descriptor.js';
import { FFMPEG_SUBTITLES_DESCRIPTOR } from './ffmpeg/ffmpeg-subtitles.descriptor.js';
import { FFMPEG_VIDEO_DESCRIPTOR } from './ffmpeg/ffmpeg-video.descriptor.js';
import { GHOSTSCRIPT_DESCRIPTOR } from './ghostscript/ghostscript.descriptor.js';
import { IMAGEMAGICK_DESCRIPTOR } from './imagemagick/imagemagick.descriptor.js';
import { IMG2PDF_DESCRIPTOR } from './img2pdf/img2pdf.descriptor.js';
import { LIBREOFFICE_DESCRIPTOR } from './libreoffice/libreoffice.descriptor.js';
import type { LibreOfficeRuntimeOptions } from './libreoffice/libreoffice.runtime.js';
import { OFFICE_MARKDOWN_DESCRIPTOR } from './office-markdown/office-markdown.descriptor.js';
import { OCR_DESCRIPTOR } from './ocr/ocr.descriptor.js';
// An engine with options of its own adds their types to the platform's (EngineOptionSchemas) by declaration merging in
// its descriptor: a bare import keeps that declaration in the package's typings, where the named one is elided.
import './ocr/ocr.descriptor.js';
import './ffmpeg/ffmpeg-options.js';
import './exiftool/exiftool.descriptor.js';
import './sharp/sharp.descriptor.js';
import { PANDOC_DESCRIPTOR } from './pandoc/pandoc.descriptor.js';
import { POPPLER_DESCRIPTOR } from './poppler/poppler.descriptor.js';
import { QPDF_DESCRIPTOR } from './qpdf/qpdf.descriptor.js';
import './qpdf/qpdf.descriptor.js';
import { SHARP_DESCRIPTOR } from './sharp/sharp.descriptor.js';

/** What a worker makes its engines' runtimes from: one engine sandbox, its runner, its Node hosts, its settings. */
export interface RuntimeMakings {
  sandbox: Promise<EngineSandbox>;
  runner: SandboxedProcessRunner;
  nodeHost: NodeHostPool;
  workRoot?: string;
  libreoffice?: Omit<LibreOfficeRuntimeOptions, 'sandbox' | 'workRoot' | 'nodeHost'>;
  chromium?: Omit<ChromiumRuntimeOptions, 'sandbox' | 'runner' | 'workRoot'>;
}

/**
 * One engine of this build: its descriptor (what the API plans and validates from) and how a worker makes its
 * runtime — loaded only then, so the API never loads an engine's code.
 */
export interface EngineRegistration {
  descriptor: EngineDescriptor;
  runtime(makings: RuntimeMakings): Promise<EngineRuntime>;
}

/**
 * Runs in the Node host, as the host task named by the engine's id (its `hostedEngine` in host-tasks.ts): the worker's
 * side only hands it each step.
 */
export const hosted = (descriptor: EngineDescriptor): EngineRegistration => ({
  descriptor,
  runtime: async ({ nodeHost }) => new (await import('../platform/node-host/node-hosted.runtime.js')).NodeHostedRuntime(descriptor, descriptor.id, nodeHost),
});

/**
 * Every engine this build knows — the one list an engine is added to (one whose code runs in the Node host adds its
 * tasks to host-tasks.ts too) — in order of preference where two offer a
 * pair at the same cost.
 */
export const ENGINES: readonly EngineRegistration[] = [
  hosted(SHARP_DESCRIPTOR),
  { descriptor: IMAGEMAGICK_DESCRIPTOR, runtime: async ({ runner }) => new (await import('./imagemagick/imagemagick.runtime.js')).ImageMagickRuntime(runner) },
  { descriptor: FFMPEG_AUDIO_DESCRIPTOR, runtime: async ({ runner }) => new (await import('./ffmpeg/ffmpeg-audio.runtime.js')).FfmpegAudioRuntime(runner) },
  { descriptor: FFMPEG_VIDEO_DESCRIPTOR, runtime: async ({ runner }) => new (await import('./ffmpeg/ffmpeg-video.runtime.js')).FfmpegVideoRuntime(runner) },
  { descriptor: FFMPEG_SUBTITLES_DESCRIPTOR, runtime: async ({ runner }) => new (await import('./ffmpeg/ffmpeg-subtitles.runtime.js')).FfmpegSubtitlesRuntime(runner) },
  {
    descriptor: LIBREOFFICE_DESCRIPTOR,
    runtime: async ({ sandbox, workRoot, nodeHost, libreoffice }) =>
      new (await import('./libreoffice/libreoffice.runtime.js')).LibreOfficeRuntime({ ...libreoffice, sandbox, workRoot, nodeHost }),
  },
  {
    descriptor: CHROMIUM_DESCRIPTOR,
    runtime: async ({ sandbox, runner, workRoot, chromium }) => new (await import('./chromium/chromium.runtime.js')).ChromiumRuntime({ ...chromium, sandbox, runner, workRoot }),
  },
  { descriptor: PANDOC_DESCRIPTOR, runtime: async ({ runner }) => new (await import('./pandoc/pandoc.runtime.js')).PandocRuntime(runner) },
  { descriptor: CALIBRE_DESCRIPTOR, runtime: async ({ runner, nodeHost }) => new (await import('./calibre/calibre.runtime.js')).CalibreRuntime(runner, undefined, nodeHost) },
  hosted(OFFICE_MARKDOWN_DESCRIPTOR),
  { descriptor: POPPLER_DESCRIPTOR, runtime: async ({ runner, nodeHost }) => new (await import('./poppler/poppler.runtime.js')).PopplerRuntime(runner, undefined, nodeHost) },
  { descriptor: GHOSTSCRIPT_DESCRIPTOR, runtime: async ({ runner }) => new (await import('./ghostscript/ghostscript.runtime.js')).GhostscriptRuntime(runner) },
  { descriptor: QPDF_DESCRIPTOR, runtime: async ({ runner }) => new (await import('./qpdf/qpdf.runtime.js')).QpdfRuntime(runner) },
  { descriptor: IMG2PDF_DESCRIPTOR, runtime: async ({ runner, nodeHost }) => new (await import('./img2pdf/img2pdf.runtime.js')).Img2pdfRuntime(runner, undefined, nodeHost) },
  hosted(DATA_DESCRIPTOR),
  { descriptor: ARCHIVES_DESCRIPTOR, runtime: async ({ runner }) => new (await import('./archives/archives.runtime.js')).ArchivesRuntime(runner) },
  { descriptor: OCR_DESCRIPTOR, runtime: async ({ runner, nodeHost }) => new (await import('./ocr/ocr.runtime.js')).OcrRuntime(runner, nodeHost) },
  { descriptor: EXIFTOOL_DESCRIPTOR, runtime: async ({ runner, nodeHost }) => new (await import('./exiftool/exiftool.runtime.js')).ExiftoolRuntime(runner, nodeHost) },
];

/** Every engine's descriptor, in the list's order. */
export const ENGINE_DESCRIPTORS: readonly EngineDescriptor[] = ENGINES.map((engine) => engine.descriptor);

const BY_ID = new Map(ENGINE_DESCRIPTORS.map((descriptor) => [descriptor.id, descriptor]));

export function engineDescriptor(id: string): EngineDescriptor | undefined {
  return BY_ID.get(id);
}
