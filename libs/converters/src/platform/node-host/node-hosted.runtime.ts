import type { EngineDescriptor } from '../engine-descriptor.js';
import type { EngineAvailability, EngineRuntime, StepContext, StepOutcome, StepRequest } from '../engine-runtime.js';
import { processLimitsOf } from '../sandbox/process-limits.js';
import type { NodeHostPool } from './node-host.pool.js';
import type { HostedConversionTask } from './hosted-engine.task.js';

/**
 * An engine whose code runs in the Node host (sharp, the data and Office readers): the worker's side of it
 * stages each step in a host of the pool, under the engine's own limits, as the host task `task` (the engine's
 * `hostedEngine` declaration, hosted-engine.task.ts). The host itself is sandboxed like every
 * engine process: nothing an upload does to it reaches the worker.
 */
export class NodeHostedRuntime implements EngineRuntime {
  constructor(
    readonly descriptor: EngineDescriptor,
    private readonly task: string,
    private readonly host: NodeHostPool,
  ) {}

  async probe(): Promise<EngineAvailability> {
    try {
      const versions = await this.host.versions();
      return { available: true, version: versions[this.task] };
    } catch (error) {
      return { available: false, problem: `the Node host does not start: ${(error as Error).message}` };
    }
  }

  start(): Promise<void> {
    return this.host.start();
  }

  stop(): Promise<void> {
    return this.host.stop();
  }

  async convert(request: StepRequest, context: StepContext): Promise<StepOutcome> {
    const { files } = await this.host.run<HostedConversionTask>({
      task: this.task,
      request: { from: request.from, to: request.to, options: request.options },
      inputPaths: [request.inputPath],
      outputDir: request.outputDir,
      limits: context.limits,
      timeoutMs: context.limits.timeoutMs,
      cpuSeconds: processLimitsOf(context.limits).cpuSeconds,
      residentBytes: processLimitsOf(context.limits).residentBytes,
      signal: context.signal,
      onProgress: context.onProgress,
    });
    context.onProgress?.(100);
    return { files };
  }
}
