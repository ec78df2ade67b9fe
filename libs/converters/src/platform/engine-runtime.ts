import type { ConversionOptions } from './conversion-options.js';
import type { EngineDescriptor, EngineLimits } from './engine-descriptor.js';

/** Whether an engine is present on this machine, as found by its probe at start-up. */
export interface EngineAvailability {
  available: boolean;
  version?: string;
  /** Why it is not available, and how to add it (for the start-up log). */
  problem?: string;
}

/** One step of a plan, between two files of the job's scratch directory. */
export interface StepRequest {
  inputPath: string;
  /** An empty directory of the step's own: the engine writes its output file(s) here. */
  outputDir: string;
  from: string;
  to: string;
  /** The options of the job this step honours (validated against the catalogue before payment). */
  options: ConversionOptions;
}

export interface StepContext {
  /** Aborting it kills the engine (its process tree) at once. */
  signal: AbortSignal;
  /** 0..100 of this step. */
  onProgress?: (percent: number) => void;
  limits: EngineLimits;
  /** The job's scratch directory: engines make their temporary directories inside it. */
  workDir: string;
}

/** Several files of the job's scratch directory joined into one (see EngineJoin), in the caller's order. */
export interface JoinRequest {
  /** The members, in order, each in the format the join takes (a PDF, a picture; any file for an archive). */
  members: ReadonlyArray<{ path: string; format: string; /** The name the caller gave it (an archive's entry name), checked safe. */ name: string }>;
  outputDir: string;
  to: string;
  /** The options of the job the join honours. */
  options: ConversionOptions;
}

/** The files a step wrote, in order (pages in page order). */
export interface StepOutcome {
  files: string[];
  /**
   * What the step did that the caller should be told, in words safe to show (`strip_metadata`: the tags it removed,
   * by group). It reaches the job's status message and its signed delivery record.
   */
  notes?: string[];
}

/**
 * An engine as a worker runs it: probe it, start and stop it (warm pools), convert one step. Failures are
 * thrown as ConversionError with the spec's failure types and messages safe to show.
 */
export interface EngineRuntime {
  readonly descriptor: EngineDescriptor;
  probe(): Promise<EngineAvailability>;
  /** Starts what must be warm (a pool); runs in the background and never delays the service. */
  start?(): Promise<void>;
  stop?(): Promise<void>;
  convert(request: StepRequest, context: StepContext): Promise<StepOutcome>;
  /** Joins several files into one (its descriptor's `joins`). */
  join?(request: JoinRequest, context: StepContext): Promise<StepOutcome>;
}

/** The one output file of a single-output step. */
export const singleOutput = (outputDir: string, to: string) => `${outputDir}/output.${to}`;
/** The n-th (1-based) output file of a step writing one file per page. */
export const pageOutput = (outputDir: string, page: number, to: string) => `${outputDir}/page-${String(page).padStart(5, '0')}.${to}`;
