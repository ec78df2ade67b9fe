import type { FailureType } from '../conversion-error.js';
import type { EngineLimits } from '../engine-descriptor.js';

/**
 * The contract of one task the Node host runs: its name on the wire, its request and its answer (both JSON). Engines
 * declare their tasks (`<engine>.host-tasks.ts`); the platform knows none of them. A worker's side names the contract
 * as a type only (`host.run<PdfTextTask>(…)`), so it never imports a task's code.
 */
export interface HostTaskContract {
  name: string;
  request: unknown;
  answer?: unknown;
}

/** What a task is given in the host: its request, its input files staged in the host's exchange directory, in order. */
export interface HostTaskCall<Contract extends HostTaskContract = HostTaskContract> {
  request: Contract['request'];
  inputPaths: string[];
  /** Where the task writes its output files (they are moved out to the worker's side after). */
  outputDir: string;
  /** The limits of the engine that asked. */
  limits: EngineLimits;
  onProgress: (percent: number) => void;
}

/** What a task answers: the files it wrote in `outputDir`, in order, and anything else it learnt. */
export interface HostTaskResult<Contract extends HostTaskContract = HostTaskContract> {
  files: string[];
  answer?: Contract['answer'];
}

/** A task's code, loaded in the host on its first use. */
export interface HostTask<Contract extends HostTaskContract = HostTaskContract> {
  run(call: HostTaskCall<Contract>): Promise<HostTaskResult<Contract>>;
  /** The version the host's probe reports under the task's name (an engine converting in the host). */
  version?(): Promise<string | undefined>;
}

/** How an engine declares a task: its name, and its code, imported on first use. */
export interface HostTaskDeclaration {
  name: string;
  load(): Promise<HostTask>;
  /** The host's probe loads the task and reports its version (an engine converting in the host: its runtime's probe). */
  probed?: boolean;
}

/** The one task every host runs itself: the versions of its probed tasks, by name. */
export const PROBE_TASK = 'probe';

/** One request, one JSON line on the host's stdin; paths are inside the host's exchange directory. */
export interface HostRequest {
  id: number;
  /** The task's name (PROBE_TASK, or one an engine declared). */
  task: string;
  request?: unknown;
  /** The request's input files, in order (most tasks take one). */
  inputPaths: string[];
  outputDir?: string;
  limits?: EngineLimits;
}

/** One JSON line on the host's stdout: progress of the running request, or its answer. */
export type HostReply =
  | { id: number; progress: number }
  | { id: number; ok: true; files: string[]; answer?: unknown; versions?: Record<string, string> }
  | { id: number; ok: false; failureType: FailureType; message: string; retryable: boolean; diagnostics?: string };

/** Declares a task of `Contract`: its name is checked against the contract's, its code against its request and answer. */
export function hostTask<Contract extends HostTaskContract>(name: Contract['name'], load: () => Promise<HostTask<Contract>>, options: { probed?: boolean } = {}): HostTaskDeclaration {
  return { name, load: load as () => Promise<HostTask>, ...options };
}
