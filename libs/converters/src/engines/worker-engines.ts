import type { EngineAvailability, EngineRuntime } from '../platform/engine-runtime.js';
import { NodeHostPool, type NodeHostPoolOptions } from '../platform/node-host/node-host.pool.js';
import { defaultEngineSandbox, type EngineSandbox } from '../platform/sandbox/engine-sandbox.js';
import { SandboxedProcessRunner } from '../platform/sandboxed-process.runner.js';
import { type EngineRegistration, ENGINES, type RuntimeMakings } from './engines.js';

/** Settings of the runtimes that take any (from the worker's configuration); every one has a default. */
export interface EngineRuntimeOptions {
  /** The worker's engine sandbox (from ENGINE_SANDBOX); default: this machine's, required. */
  sandbox?: EngineSandbox | Promise<EngineSandbox>;
  /** Where warm engines keep their directories: the jobs' scratch root, so inputs are staged by hard links. */
  workRoot?: string;
  /** Pool size, conversions per instance, start timeout… (see LibreOfficeRuntimeOptions). */
  libreoffice?: RuntimeMakings['libreoffice'];
  /** Warm browsers for HTML: pool size, pages per browser. */
  chromium?: RuntimeMakings['chromium'];
  /** Node hosts (sharp, the data and Office readers): pool size… */
  nodeHost?: Omit<NodeHostPoolOptions, 'sandbox' | 'workRoot'>;
  /** The engines to make runtimes of (default: ENGINES, this build's). */
  engines?: readonly EngineRegistration[];
}

/**
 * A runtime for every engine of ENGINES (or `options.engines`), in its order, all in one engine sandbox: processes started per conversion go
 * through one runner, warm ones (LibreOffice, the Node host) through pools.
 */
export function createEngineRuntimes(options: EngineRuntimeOptions = {}): Promise<EngineRuntime[]> {
  const sandbox = Promise.resolve(options.sandbox ?? defaultEngineSandbox());
  const makings: RuntimeMakings = {
    sandbox,
    runner: new SandboxedProcessRunner(undefined, sandbox),
    nodeHost: new NodeHostPool({ ...options.nodeHost, sandbox, workRoot: options.workRoot }),
    workRoot: options.workRoot,
    libreoffice: options.libreoffice,
    chromium: options.chromium,
  };
  return Promise.all((options.engines ?? ENGINES).map((engine) => engine.runtime(makings)));
}

export interface ProbedEngines {
  /** The runtimes whose probe succeeded, by engine id. */
  available: Map<string, EngineRuntime>;
  versions: Record<string, string | undefined>;
  /** The others, with why, and the Debian packages that would add them. */
  missing: Array<{ id: string; problem: string; debianPackages: readonly string[] }>;
}

/** Probes every runtime (I/O); a probe that throws counts as an engine that is not there. */
export async function probeEngines(runtimes: readonly EngineRuntime[]): Promise<ProbedEngines> {
  const probed = await Promise.all(
    runtimes.map(async (runtime) => ({
      runtime,
      availability: await runtime.probe().catch((error: Error): EngineAvailability => ({ available: false, problem: error.message })),
    })),
  );
  return {
    available: new Map(probed.filter((p) => p.availability.available).map((p) => [p.runtime.descriptor.id, p.runtime])),
    versions: Object.fromEntries(probed.filter((p) => p.availability.available).map((p) => [p.runtime.descriptor.id, p.availability.version])),
    missing: probed
      .filter((p) => !p.availability.available)
      .map((p) => ({ id: p.runtime.descriptor.id, problem: p.availability.problem ?? 'not available', debianPackages: p.runtime.descriptor.debianPackages })),
  };
}
