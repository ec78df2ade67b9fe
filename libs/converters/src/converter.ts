/** One conversion an engine can do, between lowercase canonical format ids (@fileshift/formats). */
export interface ConversionPair {
  from: string;
  to: string;
  /** A target worth offering first (the key API marks these 1). */
  recommended?: boolean;
}

/** Whether an engine is present on this machine, as found by its probe at start-up. */
export interface EngineAvailability {
  available: boolean;
  version?: string;
  /** Why it is not available (for the start-up log). */
  problem?: string;
}

export interface ConversionRequest {
  inputPath: string;
  outputPath: string;
  from: string;
  to: string;
  /** Engine-neutral options (e.g. quality); engines ignore the ones they do not know. */
  options?: Readonly<Record<string, string | number | boolean>>;
}

/** Limits every engine enforces; see DEFAULT_CONVERSION_LIMITS. */
export interface ConversionLimits {
  timeoutMs: number;
  maxOutputBytes: number;
  /** Media engines cut the output at this duration. */
  maxDurationSeconds: number;
  /** Image engines refuse inputs with more pixels (decompression bombs). */
  maxInputPixels: number;
}

export interface ConversionContext {
  signal: AbortSignal;
  onProgress?: (percent: number) => void;
  limits: ConversionLimits;
  /** Where external engines create their per-job temporary directory (default: the OS temp dir). */
  workRoot?: string;
}

export interface ConversionOutcome {
  engine: string;
  outputBytes: number;
}

/**
 * A conversion engine. The registry probes it at start-up; only engines present on the machine
 * contribute their pairs to the conversion graph. Failures are thrown as ConversionError.
 */
export interface Converter {
  readonly id: string;
  probe(): Promise<EngineAvailability>;
  pairs(): readonly ConversionPair[];
  convert(request: ConversionRequest, context: ConversionContext): Promise<ConversionOutcome>;
}
