import type { ConversionOptions } from '../conversion-options.js';
import type { EngineRuntime } from '../engine-runtime.js';
import { type HostTaskDeclaration, hostTask } from './node-host.protocol.js';

/** One step of an engine that converts in the host (NodeHostedRuntime's request); the task is named by the engine. */
export interface HostedConversionTask {
  name: string;
  request: { from: string; to: string; options: ConversionOptions };
}

/**
 * The host's side of an engine converting in the host (sharp, the data and Office readers): its runtime, made on the
 * task's first use, runs each step on the staged input; the host's probe reports the runtime's version under `name`.
 */
export function hostedEngine(name: string, runtime: () => Promise<EngineRuntime>): HostTaskDeclaration {
  return hostTask<HostedConversionTask>(
    name,
    async () => {
      const engine = await runtime();
      return {
        version: async () => (await engine.probe()).version,
        run: async ({ request, inputPaths: [inputPath = ''], outputDir, limits, onProgress }) => {
          const { files } = await engine.convert({ inputPath, outputDir, ...request }, { signal: new AbortController().signal, limits, workDir: outputDir, onProgress });
          return { files };
        },
      };
    },
    { probed: true },
  );
}
