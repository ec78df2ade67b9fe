import { availableParallelism, tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { ConversionError } from '../conversion-error.js';
import type { EngineLimits } from '../engine-descriptor.js';
import { defaultEngineSandbox, type EngineSandbox } from '../sandbox/engine-sandbox.js';
import { sweepOrphanDirectories } from '../sandbox/owned-directories.js';
import { processLimitsOf } from '../sandbox/process-limits.js';
import { NodeHostProcess, type HostAnswer, type HostCall, NODE_HOST_PREFIX } from './node-host.process.js';
import { packageClosure } from './package-closure.js';

/** The host program, built by the package's build (esbuild) from node-host.main.ts: the same path from src/ and dist/. */
export const NODE_HOST_BUNDLE = fileURLToPath(new URL('../../../dist/node-host/node-host.mjs', import.meta.url));

/**
 * The host's own limits: those of the processes (a request's time and CPU come with it, from the engine that
 * asks). Node reserves about 1.5 GB of address space before it does anything.
 */
const HOST_LIMITS: EngineLimits = { timeoutMs: 24 * 3600_000, maxOutputBytes: 512 * 1024 * 1024, memoryBytes: 3 * 1024 ** 3, processes: 64, openFiles: 256 };
const HEAP_MB = 1536;
export const DEFAULT_MAX_REQUESTS_PER_HOST = 500;

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
  private readonly hosts = new Set<StartedHost>();
  private idle: StartedHost[] = [];
  private waiters: Array<{ resolve: (host: StartedHost) => void; reject: (error: Error) => void }> = [];
  private versionsSeen?: Promise<Record<string, string>>;
  private readonly size: number;
  private readonly sandbox: Promise<EngineSandbox>;
  private readonly bundle: string;
  private readonly exitHook = () => {
    for (const host of this.hosts) host.process?.killNow();
  };
  private running = false;
  /** What the host needs of node_modules (sharp and its libraries), found once. */
  private sharpPackages?: Promise<string[]>;

  constructor(private readonly options: NodeHostPoolOptions = {}) {
    this.size = options.size ?? Math.max(1, Math.min(4, availableParallelism()));
    this.sandbox = Promise.resolve(options.sandbox ?? defaultEngineSandbox());
    this.bundle = options.bundle ?? NODE_HOST_BUNDLE;
  }

  /** The hosted engines' versions, from a host that started (once); rejects with why a host cannot start. */
  versions(): Promise<Record<string, string>> {
    this.versionsSeen ??= this.withHost((host) => Promise.resolve(host.versions)).catch((error: unknown) => {
      this.versionsSeen = undefined;
      throw error;
    });
    return this.versionsSeen;
  }

  /** Starts the hosts in the background; never rejects. */
  async start(): Promise<void> {
    this.begin();
    const starting: Array<Promise<unknown>> = [];
    while (this.hosts.size < this.size) starting.push(this.spawn().then((host) => this.offer(host), () => undefined));
    await Promise.allSettled(starting);
  }

  async stop(): Promise<void> {
    this.running = false;
    const stopping = new ConversionError('provider_error', 'The Node host is stopping.', true);
    for (const waiter of this.waiters.splice(0)) waiter.reject(stopping);
    this.idle = [];
    await Promise.all([...this.hosts].map((host) => host.process?.stop()));
    this.hosts.clear();
    process.off('exit', this.exitHook);
  }

  /** Runs one request on a host of the pool. */
  run(call: HostCall): Promise<HostAnswer> {
    return this.withHost((host) => host.process.request(call));
  }

  private async withHost<T>(use: (host: StartedHost) => Promise<T>): Promise<T> {
    const host = await this.acquire();
    try {
      return await use(host);
    } finally {
      this.release(host);
    }
  }

  private begin(): void {
    if (this.running) return;
    this.running = true;
    process.on('exit', this.exitHook);
    // What the hosts of a killed worker left: their processes died with it, their directories did not.
    void sweepOrphanDirectories(this.root(), NODE_HOST_PREFIX).catch(() => undefined);
  }

  private root(): string {
    return this.options.workRoot ?? tmpdir();
  }

  private async acquire(): Promise<StartedHost> {
    this.begin();
    for (let idle = this.idle.pop(); idle; idle = this.idle.pop()) {
      // One that died while idle is not offered: it goes, and the pool has room for another.
      if (!idle.process.ended) return idle;
      this.hosts.delete(idle);
    }
    if (this.hosts.size < this.size) return this.spawn();
    return new Promise<StartedHost>((resolve, reject) => this.waiters.push({ resolve, reject }));
  }

  private release(host: StartedHost): void {
    if (host.process.ended || host.process.requests >= (this.options.maxRequestsPerHost ?? DEFAULT_MAX_REQUESTS_PER_HOST)) {
      this.retire(host);
      return;
    }
    this.offer(host);
  }

  private offer(host: StartedHost): void {
    if (!this.running) return void host.process.stop();
    const waiter = this.waiters.shift();
    if (waiter) waiter.resolve(host);
    else this.idle.push(host);
  }

  /** A dead or worn host goes; a waiting request gets a fresh one. */
  private retire(host: StartedHost): void {
    this.hosts.delete(host);
    void host.process.stop();
    if (this.waiters.length > 0 && this.running) {
      void this.spawn().then(
        (fresh) => this.offer(fresh),
        (error: Error) => this.waiters.shift()?.reject(error),
      );
    }
  }

  private async spawn(): Promise<StartedHost> {
    // Counted from the start, so that concurrent requests do not start more hosts than the pool holds.
    const host: StartedHost = { process: undefined!, versions: {} };
    this.hosts.add(host);
    try {
      host.process = new NodeHostProcess({
        sandbox: await this.sandbox,
        root: this.root(),
        bundle: this.bundle,
        readOnlyPaths: await (this.sharpPackages ??= packageClosure(this.bundle, 'sharp')),
        limits: processLimitsOf(HOST_LIMITS),
        heapMb: this.options.heapMb ?? HEAP_MB,
      });
      host.versions = await host.process.start();
      return host;
    } catch (error) {
      this.hosts.delete(host);
      throw new ConversionError('provider_error', 'The Node host could not start.', true, (error as Error).message);
    }
  }
}

interface StartedHost {
  process: NodeHostProcess;
  versions: Record<string, string>;
}
