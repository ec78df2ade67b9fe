import { randomBytes } from 'node:crypto';
import { chmod, mkdir } from 'node:fs/promises';
import { hostname } from 'node:os';
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown, type OnModuleDestroy } from '@nestjs/common';
import { createEngineRuntimes, EngineRoster, EngineSandbox, type EngineRuntime } from '@fileshift/converters/worker';
import type { AppConfig } from '../../config/app-config.js';
import { APP_CONFIG } from '../../config/app-config.token.js';
import { ServiceMetrics } from '../../metrics/service-metrics.js';
import { within } from '../../queue/within.js';
import { CapabilityBoard, type WorkerSandbox } from '../../live-conversions/capability-board.js';
import { RunningCount } from '../../queue/running-count.js';

const PUBLISH_EVERY_MS = 10_000;
const PUBLISH_TIMEOUT_MS = 3000;
/** How often the engines missing here are probed again. */
const REPROBE_EVERY_MS = 60_000;

/**
 * The engines of a worker process: their sandbox decided once at start (ENGINE_SANDBOX; `required`, the default,
 * refuses to start where it cannot hold), probed at start, warm pools started in the background (a conversion asked for
 * meanwhile waits for them, nothing else does), their capabilities published for the API and renewed every 10 s,
 * stopped with the process. What is missing is logged once, with the Debian packages that would add it, and probed
 * again every minute: an engine found later (a stalled start, a package installed since) is served from then on.
 */
@Injectable()
export class EngineHost implements OnApplicationBootstrap, OnModuleDestroy, OnApplicationShutdown {
  private readonly logger = new Logger(EngineHost.name);
  private readonly workerId = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  private runtimes: EngineRuntime[] = [];
  private roster = new EngineRoster([]);
  private sandbox?: WorkerSandbox;
  private warm = false;
  private readonly conversions = new RunningCount();
  private markProbed!: () => void;
  private readonly probing = new Promise<void>((resolve) => (this.markProbed = resolve));
  private timer?: NodeJS.Timeout;
  private reprobeTimer?: NodeJS.Timeout;
  private reprobing = false;
  private stopping = false;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly board: CapabilityBoard,
    private readonly metrics: ServiceMetrics,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const { poolSize, maxConversionsPerInstance } = this.config.workers.libreoffice;
    const { scratchDir, enginesDir } = this.config;
    // Searchable, not listable: a sandbox's user started outside (own-user-namespace) walks to the one directory it is
    // given. The sandbox's start-up trial runs in each, so a parent it cannot walk through is found now, not per job.
    for (const dir of [scratchDir, enginesDir]) {
      await mkdir(dir, { recursive: true });
      await chmod(dir, 0o711);
    }
    const sandbox = await EngineSandbox.start(this.config.workers.sandbox, { workRoots: [scratchDir, enginesDir] });
    const { status } = sandbox;
    this.sandbox = { setting: status.setting, sandboxed: status.sandboxed, identity: status.identity, description: status.description };
    // Sandboxed: said once; off by choice: a warning at every start.
    if (status.sandboxed) this.logger.log(status.description);
    else this.logger.warn(status.description);
    this.metrics.engineSandbox(this.sandbox);
    this.runtimes = await createEngineRuntimes({
      sandbox,
      workRoot: enginesDir,
      nodeHost: { size: this.config.workers.nodeHostPoolSize },
      libreoffice: {
        size: poolSize,
        maxConversionsPerInstance,
        log: (level, message) => (level === 'warn' ? this.logger.warn(`libreoffice: ${message}`) : this.logger.log(`libreoffice: ${message}`)),
        onInstanceReplaced: (reason) => this.metrics.poolInstanceReplaced('libreoffice', reason),
      },
    });
    this.roster = new EngineRoster(this.runtimes);
    const { found, missing } = await this.roster.probeMissing();
    for (const engine of missing) {
      const hint = engine.debianPackages.length > 0 ? `; to add it: apt-get install ${engine.debianPackages.join(' ')}` : '';
      this.logger.warn(`engine ${engine.id} is not available here (${engine.problem}; probed again every ${REPROBE_EVERY_MS / 1000} s)${hint}`);
    }
    this.markProbed();
    this.logger.log(`engines: ${found.map((runtime) => this.named(runtime)).join(', ') || 'none'}`);
    // Once the warm pools have started, the worker says so at once (a benchmark, an operator waits for that; the API
    // lists pairs before it).
    void this.startServed(found).then(() => {
      this.warm = true;
      return this.publish();
    });
    await this.publish();
    this.timer = setInterval(() => void this.publish(), PUBLISH_EVERY_MS).unref();
    if (missing.length > 0) this.reprobeTimer = setInterval(() => void this.reprobe().catch((error: unknown) => this.logger.warn(`engines not probed again: ${(error as Error).message}`)), REPROBE_EVERY_MS).unref();
  }

  /** Probes the engines missing here again; those found are served (and published) from now on. */
  private async reprobe(): Promise<void> {
    if (this.reprobing) return;
    this.reprobing = true;
    try {
      const { found, missing } = await this.roster.probeMissing();
      if (missing.length === 0) clearInterval(this.reprobeTimer);
      // Found while the worker stops: its engines are being stopped, none is started again.
      if (found.length === 0 || this.stopping) return;
      this.logger.log(`engines found since start-up: ${found.map((runtime) => this.named(runtime)).join(', ')}`);
      void this.startServed(found);
      await this.publish();
    } finally {
      this.reprobing = false;
    }
  }

  /** Starts the warm pools of those engines whose class this worker serves, in the background; never rejects. */
  private async startServed(runtimes: readonly EngineRuntime[]): Promise<void> {
    await Promise.all(
      runtimes
        .filter((runtime) => this.config.workers.queues.includes(runtime.descriptor.engineClass))
        .map((runtime) => runtime.start?.().catch((error: unknown) => this.logger.error(`engine ${runtime.descriptor.id} failed to start: ${(error as Error).message}`))),
    );
  }

  private named(runtime: EngineRuntime): string {
    const version = this.roster.versions[runtime.descriptor.id];
    return `${runtime.descriptor.id}${version ? ` (${version})` : ''}`;
  }

  async onModuleDestroy(): Promise<void> {
    this.stopping = true;
    clearInterval(this.timer);
    clearInterval(this.reprobeTimer);
    await within(this.board.withdraw(this.workerId), PUBLISH_TIMEOUT_MS, 'Redis').catch(() => undefined);
  }

  /**
   * The engines stop last: the queue's workers close in this same phase, finishing their running jobs, and every
   * engine is a process of its own now (a sandbox) that a stop would kill mid-conversion. So the conversions under
   * way end first.
   */
  async onApplicationShutdown(): Promise<void> {
    // Each phase is logged: a shutdown that runs out of time says where it waited.
    if (this.conversions.size > 0) this.logger.log(`shutdown: waiting for ${this.conversions.size} running conversion(s) to end`);
    await this.conversions.idle();
    this.logger.log('shutdown: stopping the engines');
    await Promise.all(this.runtimes.map((runtime) => runtime.stop?.().catch(() => undefined)));
    this.logger.log('shutdown: engines stopped');
  }

  /** Runs a conversion on this worker's engines, counted so that a shutdown lets it end before the engines stop. */
  converting<T>(conversion: () => Promise<T>): Promise<T> {
    return this.conversions.run(conversion);
  }

  /** The version of an engine here, as its probe read it (null: not known). */
  versionOf(engine: string): string | null {
    return this.roster.versions[engine] ?? null;
  }

  /** Settles once the engines here are known (probed at start-up); never rejects (a failed start ends the process). */
  probed(): Promise<void> {
    return this.probing;
  }

  /** The runtimes of the engines present here, by engine id. */
  runtimesById(): ReadonlyMap<string, EngineRuntime> {
    return this.roster.available;
  }

  private async publish(): Promise<void> {
    const capabilities = {
      workerId: this.workerId,
      host: hostname(),
      pid: process.pid,
      engines: [...this.roster.available.keys()],
      versions: this.roster.versions,
      queues: this.config.workers.queues,
      sandbox: this.sandbox,
      warm: this.warm,
      seenAt: Date.now(),
    };
    await within(this.board.publish(capabilities), PUBLISH_TIMEOUT_MS, 'Redis').catch((error: unknown) =>
      this.logger.warn(`capabilities not published (retried in ${PUBLISH_EVERY_MS / 1000} s): ${(error as Error).message}`),
    );
  }
}
