import type { ConversionLimits } from './converter.js';

/** Defaults sized for a web service: generous for real files, fatal for bombs and runaways. */
export const DEFAULT_CONVERSION_LIMITS: ConversionLimits = Object.freeze({
  timeoutMs: 120_000,
  maxOutputBytes: 512 * 1024 * 1024,
  maxDurationSeconds: 3 * 3600,
  maxInputPixels: 100_000_000,
});
