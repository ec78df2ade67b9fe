/** One conversion an engine can do, between canonical format ids of @fileshift/formats. */
export interface ConversionPair {
  from: string;
  to: string;
  /** A target worth offering first (the key API marks these 1). */
  recommended?: boolean;
}

export interface ConversionRequest {
  inputPath: string;
  outputPath: string;
  from: string;
  to: string;
  /** Where engines may create their per-job temporary directory (default: the system temp dir). */
  workRoot?: string;
}

export interface ConversionContext {
  signal: AbortSignal;
  onProgress?: (percent: number) => void;
}

/**
 * A conversion engine. The registry probes it at start-up; only engines present on the machine
 * contribute their pairs to the conversion graph.
 */
export interface Converter {
  readonly id: string;
  probe(): Promise<{ available: boolean; version?: string; problem?: string }>;
  pairs(): readonly ConversionPair[];
  convert(request: ConversionRequest, context: ConversionContext): Promise<void>;
}
