import type { StepContext, StepRequest } from '../engine-runtime.js';
import { processLimitsOf } from '../sandbox/process-limits.js';
import type { NodeHostPool } from './node-host.pool.js';

/**
 * The contract of a task that prepares an engine's input in the Node host (LibreOffice's and calibre's declare one):
 * the input checked for that engine, and the cleaned copy it should read instead, if any. A refusal fails the step
 * with its failure type.
 */
export interface InputPreparationTask {
  name: string;
  request: { from: string };
}

/**
 * The worker's side of an input's preparation by the host task `task` (named by the engine that needs it): the upload
 * is read in a Node host, never here. The cleaned copy it made, moved into `outputDir`, or undefined for the input as
 * it is.
 */
export async function prepareInput<Task extends InputPreparationTask>(host: NodeHostPool, task: Task['name'], request: StepRequest, context: StepContext, outputDir: string): Promise<string | undefined> {
  const { files } = await host.run<Task>({
    task,
    request: { from: request.from },
    inputPaths: [request.inputPath],
    outputDir,
    limits: context.limits,
    timeoutMs: context.limits.timeoutMs,
    cpuSeconds: processLimitsOf(context.limits).cpuSeconds,
    signal: context.signal,
  });
  return files[0];
}
