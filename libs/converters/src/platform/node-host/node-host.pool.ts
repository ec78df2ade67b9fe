import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { ConversionError } from '../conversion-error.js';
import type { EngineLimits } from '../engine-descriptor.js';
import { defaultEngineSandbox, type EngineSandbox } from '../sandbox/engine-sandbox.js';
import { sweepOrphanDirectories } from '../sandbox/owned-directories.js';
import { processLimitsOf } from '../sandbox/process-limits.js';
import { NodeHostProcess, type HostAnswer, type HostCall, NODE_HOST_PREFIX } from './node-host.process.js';
import type { HostTaskContract } from './node-host.protocol.js';
import { WarmPool } from '../warm-pool.js';
import { packageClosure } from './package-closure.js';
import { workRootOf } from '../sandbox/absolute-path.js';

/** The host program, built by the package's build (esbuild) from engines/node-host-tasks.ts: the same path from src/ and dist/. */
export const NODE_HOST_BUNDLE = fileURLToPath(new URL('../../../dist/node-host/node-host.mjs', import.meta.url));

/**
 * The host's own limits: those of the processes (a request's time and CPU come with it, from the engine that
 * asks). Node reserves about 1.5 GB of address space before it does anything.
 */
const HOST_LIMITS: EngineLimits = { timeoutMs: 24 * 3600_000, maxOutputBytes: 512 * 1024 * 1024, memoryBytes: 3 * 1024 ** 3, processes: 64, openFiles: 256 };
const HEAP_MB = 1536;
/** Replacing a host costs a sandbox and a Node start (~0.25 s of the worker's time): after 2,000 that is ~0.1 ms a request. */
export const DEFAULT_MAX_REQUESTS_PER_HOST = 2000;

export interface NodeHostPoolOptions {
  /** The worker's engine sandbox (default: this machine's, required). */
  sandbox?: EngineSandbox | Promise<EngineSandbox>;
  /** Hosts running at once, each one request at a time. Default: the cores, 1 to 4. */
  size?: number;
  /** Host directories are made under this one (best on the file system of the jobs' scratch directories). */
  workRoot?: string;
  /** A host is replaced after this many requests. */
  maxRequestsPerHost?: number;
  /** V8's heap of each host, in MB (default 1536). */
  heapMb?: number;
  bundle?: string;
}

/**
 * Warm Node hosts (see node-host.main.ts): up to `size`, started when first needed or by `start()`, each serving one
 * request at a time, replaced when they die, are killed by a limit, or have served `maxRequestsPerHost`. Requests
 * wait their turn in order.
 */
export class NodeHostPool {
  private readonly pool: WarmPool<NodeHostProcess>;
  private versionsSeen?: Promise<Record<string, string>>;
  private readonly sandbox: Promise<EngineSandbox>;
  private readonly bundle: string;
  /** What the host needs of node_modules (sharp and its libraries), found once. */
  private sharpPackages?: Promise<string[]>;

  /** Where its processes' directories are made (checked absolute at construction). */
  private readonly workRoot: string;

  constructor(private readonly options: NodeHostPoolOptions = {}) {
    this.workRoot = workRootOf(options.workRoot);
    this.sandbox = Promise.resolve(options.sandbox ?? defaultEngineSandbox());
    this.bundle = options.bundle ?? NODE_HOST_BUNDLE;
    this.pool = new WarmPool({
      size: options.size ?? Math.max(1, Math.min(4, availableParallelism())),
      maxRequests: options.maxRequestsPerHost ?? DEFAULT_MAX_REQUESTS_PER_HOST,
      spawn: () => this.spawn(),
      // What the hosts of a killed worker left: their processes died with it, their directories did not.
      onBegin: () => void sweepOrphanDirectories(this.workRoot, NODE_HOST_PREFIX).catch(() => undefined),
      stopping: () => new ConversionError('provider_error', 'The Node host is stopping.', true),
    });
  }

  /** The hosted engines' versions, from a host that started (once); rejects with why a host cannot start. */
  versions(): Promise<Record<string, string>> {
    this.versionsSeen ??= this.pool.with((host) => Promise.resolve(host.versions)).catch((error: unknown) => {
      this.versionsSeen = undefined;
      throw error;
    });
    return this.versionsSeen;
  }

  /** Starts the hosts in the background; never rejects. */
  start(): Promise<void> {
    return this.pool.start();
  }

  stop(): Promise<void> {
    return this.pool.stop();
  }

  /** Runs one request on a host of the pool: a task by name (its contract, `Contract`, a type of the engine's). */
  run<Contract extends HostTaskContract>(call: HostCall<Contract>): Promise<HostAnswer<Contract>> {
    return this.pool.with((host) => host.request(call));
  }


  private async spawn(): Promise<NodeHostProcess> {
    try {
      const host = new NodeHostProcess({
        sandbox: await this.sandbox,
        root: this.workRoot,
        bundle: this.bundle,
        readOnlyPaths: await (this.sharpPackages ??= packageClosure(this.bundle, 'sharp')),
        limits: processLimitsOf(HOST_LIMITS),
        heapMb: this.options.heapMb ?? HEAP_MB,
      });
      await host.start();
      return host;
    } catch (error) {
      throw new ConversionError('provider_error', 'The Node host could not start.', true, (error as Error).message);
    }
  }
}
