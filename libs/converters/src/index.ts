export { ConversionGraph } from './conversion-graph.js';
export type { ConversionContext, ConversionPair, ConversionRequest, Converter } from './converter.js';
export { createConversionGraph, knownConverters } from './create-conversion-graph.js';
export { MAX_INPUT_PIXELS, SharpImageConverter } from './sharp-image.converter.js';
export { ConversionError, type FailureType } from './conversion-error.js';
export { DEFAULT_FFMPEG_LIMITS, FfmpegAudioConverter, type FfmpegLimits } from './ffmpeg-audio.converter.js';
export { type SandboxedResult, type SandboxedRun, SandboxedProcessRunner } from './sandboxed-process.runner.js';
