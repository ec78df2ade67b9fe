// What workers import: the engines' runtimes, the sandboxed runner and the plan runner.
export { convertData, DataFormatsRuntime } from './data-formats.runtime.js';
export { createEngineRuntimes, type EngineRuntimeOptions, probeEngines, type ProbedEngines } from './engine-runtimes.js';
export { ArchivesRuntime } from './archives.runtime.js';
export { type EngineAvailability, type EngineRuntime, pageOutput, singleOutput, type StepContext, type StepOutcome, type StepRequest } from './engine-runtime.js';
export { FfmpegAudioRuntime } from './ffmpeg-audio.runtime.js';
export { FfmpegSubtitlesRuntime } from './ffmpeg-subtitles.runtime.js';
export { FfmpegVideoRuntime, videoOutputArgs } from './ffmpeg-video.runtime.js';
export { inputArgs as ffmpegInputArgs } from './ffmpeg/ffmpeg-formats.js';
export { DEBIAN_SRGB_PROFILE, GhostscriptRuntime } from './ghostscript.runtime.js';
export { ImageMagickRuntime } from './imagemagick.runtime.js';
export { Img2pdfRuntime } from './img2pdf.runtime.js';
export {
  DEFAULT_MAX_CONVERSIONS_PER_INSTANCE,
  DEFAULT_START_TIMEOUT_MS,
  type InstanceReplacement,
  LibreOfficeRuntime,
  type LibreOfficeRuntimeOptions,
} from './libreoffice/libreoffice.runtime.js';
export { OfficeMarkdownRuntime } from './office-markdown.runtime.js';
export { PandocRuntime } from './pandoc.runtime.js';
export { type PlanResult, type PlanRun, runPlan, type StepTiming } from './plan-runner.js';
export { type PopplerCommands, PopplerRuntime } from './poppler.runtime.js';
export { SandboxedProcessRunner, type SandboxedResult, type SandboxedRun } from './sandboxed-process.runner.js';
export { SharpImageRuntime } from './sharp-image.runtime.js';
export { NodeHostPool } from './node-host/node-host.pool.js';
export { NodeHostedRuntime } from './node-host/node-hosted.runtime.js';
export { EngineSandbox, SANDBOX_SETTINGS, type SandboxSetting, type SandboxStatus, SandboxUnavailableError } from './sandbox/engine-sandbox.js';
export { ownedDirectory, sweepOrphanDirectories } from './sandbox/owned-directories.js';
