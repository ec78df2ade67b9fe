/** What the API needs to know of the conversion graph (built from the engines present on this machine). */
export interface ConversionTargets {
  targetsOf(from: string): readonly string[];
  /** A primary target for the source (the key API marks it 1), rather than merely available (0). */
  isRecommended(from: string, to: string): boolean;
}

/** One conversion between two files of a scratch directory. */
export interface EngineRun {
  inputPath: string;
  outputPath: string;
  from: string;
  to: string;
  /** The conversion's scratch directory: external engines make their own temporary directory inside it. */
  workDir: string;
  /** Aborting it kills the engine (its whole process tree). */
  signal: AbortSignal;
  onProgress: (percent: number) => void;
}

/** Runs one conversion on the engine the graph names for the pair. */
export interface ConversionEngines {
  convert(run: EngineRun): Promise<void>;
}

export const CONVERSION_GRAPH = Symbol('CONVERSION_GRAPH');
export const CONVERSION_ENGINES = Symbol('CONVERSION_ENGINES');
