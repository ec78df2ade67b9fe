export { ConversionError, FAILURE_TYPES, type FailureType } from './conversion-error.js';
export { ConversionGraph } from './conversion-graph.js';
export { DEFAULT_CONVERSION_LIMITS } from './conversion-limits.js';
export type {
  ConversionContext,
  ConversionLimits,
  ConversionOutcome,
  ConversionPair,
  ConversionRequest,
  Converter,
  EngineAvailability,
} from './converter.js';
export { createConversionGraph, createDefaultRegistry, knownConverters, type ConverterRegistry } from './create-default-registry.js';
export { FfmpegAudioConverter } from './ffmpeg-audio.converter.js';
export { SandboxedProcessRunner, type SandboxedResult, type SandboxedRun } from './sandboxed-process.runner.js';
export { SharpImageConverter } from './sharp-image.converter.js';
