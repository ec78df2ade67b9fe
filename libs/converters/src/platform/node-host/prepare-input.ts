import type { StepContext, StepRequest } from '../engine-runtime.js';
import { processLimitsOf } from '../sandbox/process-limits.js';
import type { NodeHostPool } from './node-host.pool.js';
import type { PreparingEngine } from './node-host.protocol.js';

/**
 * The worker's side of an input's preparation (node-host/prepared-input.ts): the upload is read in a Node host, never
 * here. The cleaned copy it made, moved into `outputDir`, or undefined for the input as it is.
 */
export async function prepareInput(host: NodeHostPool, engine: PreparingEngine, request: StepRequest, context: StepContext, outputDir: string): Promise<string | undefined> {
  const { files } = await host.run({
    task: { kind: 'prepare-input', engine, from: request.from },
    inputPaths: [request.inputPath],
    outputDir,
    limits: context.limits,
    timeoutMs: context.limits.timeoutMs,
    cpuSeconds: processLimitsOf(context.limits).cpuSeconds,
    signal: context.signal,
  });
  return files[0];
}
