import type { EngineRuntime } from '../platform/engine-runtime.js';
import { probeEngines, type ProbedEngines } from './worker-engines.js';

/** What one round of probes changed: the engines found in it, and why the others are still missing. */
export interface ProbeRound {
  found: EngineRuntime[];
  missing: ProbedEngines['missing'];
}

/**
 * A worker's engines as its probes found them. The missing ones are probed again on each call, so that a worker whose
 * start-up checks met a stalled machine, or that had a package installed since, is not without an engine for its whole
 * life; an engine once found stays (a binary gone later fails its conversions as retryable, see throwIfEngineMissing).
 */
export class EngineRoster {
  /** The runtimes whose probe succeeded, by engine id. */
  readonly available = new Map<string, EngineRuntime>();
  readonly versions: Record<string, string | undefined> = {};
  private missing: readonly EngineRuntime[];

  constructor(runtimes: readonly EngineRuntime[]) {
    this.missing = runtimes;
  }

  /** Probes every engine not found yet (all of them the first time). */
  async probeMissing(): Promise<ProbeRound> {
    if (this.missing.length === 0) return { found: [], missing: [] };
    const probed = await probeEngines(this.missing);
    const found = this.missing.filter((runtime) => probed.available.has(runtime.descriptor.id));
    for (const runtime of found) {
      this.available.set(runtime.descriptor.id, runtime);
      this.versions[runtime.descriptor.id] = probed.versions[runtime.descriptor.id];
    }
    this.missing = this.missing.filter((runtime) => !probed.available.has(runtime.descriptor.id));
    return { found, missing: probed.missing };
  }
}
