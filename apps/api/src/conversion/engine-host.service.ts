import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { ConversionGraph, type ConversionPlan, ENGINE_DESCRIPTORS } from '@fileshift/converters';
import { createEngineRuntimes, type EngineRuntime, probeEngines } from '@fileshift/converters/runtime';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/app-config.token.js';
import { ServiceMetrics } from '../metrics/service-metrics.js';
import { within } from '../queue/within.js';
import { CapabilityBoard } from './capability-board.js';

const PUBLISH_EVERY_MS = 10_000;
const PUBLISH_TIMEOUT_MS = 3000;

/**
 * The engines of a worker process: probed once at start, warm pools started in the background (a
 * conversion asked for meanwhile waits for them, nothing else does), their capabilities published for the
 * API and renewed every 10 s, stopped with the process. What is missing is logged once, with the Debian
 * packages that would add it.
 */
@Injectable()
export class EngineHost implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(EngineHost.name);
  private readonly workerId = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  private runtimes: EngineRuntime[] = [];
  private available = new Map<string, EngineRuntime>();
  private versions: Record<string, string | undefined> = {};
  private graph = new ConversionGraph([]);
  private timer?: NodeJS.Timeout;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly board: CapabilityBoard,
    private readonly metrics: ServiceMetrics,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const { poolSize, maxConversionsPerInstance } = this.config.workers.libreoffice;
    this.runtimes = createEngineRuntimes({
      libreoffice: {
        size: poolSize,
        maxConversionsPerInstance,
        log: (level, message) => (level === 'warn' ? this.logger.warn(`libreoffice: ${message}`) : this.logger.log(`libreoffice: ${message}`)),
        onInstanceReplaced: (reason) => this.metrics.poolInstanceReplaced('libreoffice', reason),
      },
    });
    const probed = await probeEngines(this.runtimes);
    this.available = probed.available;
    this.versions = probed.versions;
    this.graph = new ConversionGraph(ENGINE_DESCRIPTORS.filter((descriptor) => probed.available.has(descriptor.id)));
    for (const missing of probed.missing) {
      const hint = missing.debianPackages.length > 0 ? `; to add it: apt-get install ${missing.debianPackages.join(' ')}` : '';
      this.logger.warn(`engine ${missing.id} is not available here (${missing.problem})${hint}`);
    }
    this.logger.log(`engines: ${[...this.available.keys()].map((id) => `${id}${this.versions[id] ? ` (${this.versions[id]})` : ''}`).join(', ') || 'none'}`);
    // Warm pools of the engine classes this worker serves start in the background; nothing waits for them.
    for (const runtime of this.available.values()) {
      if (!this.config.workers.queues.includes(runtime.descriptor.engineClass)) continue;
      void runtime.start?.().catch((error: unknown) => this.logger.error(`engine ${runtime.descriptor.id} failed to start: ${(error as Error).message}`));
    }
    await this.publish();
    this.timer = setInterval(() => void this.publish(), PUBLISH_EVERY_MS).unref();
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    await within(this.board.withdraw(this.workerId), PUBLISH_TIMEOUT_MS, 'Redis').catch(() => undefined);
    await Promise.all(this.runtimes.map((runtime) => runtime.stop?.().catch(() => undefined)));
  }

  /** The runtimes of the engines present here, by engine id. */
  runtimesById(): ReadonlyMap<string, EngineRuntime> {
    return this.available;
  }

  /** The plans this worker could run itself, cheapest first (fallbacks of a job's recorded plan). */
  localPlans(from: string, to: string): ConversionPlan[] {
    return this.graph.plans(from, to);
  }

  private async publish(): Promise<void> {
    const capabilities = {
      workerId: this.workerId,
      host: hostname(),
      pid: process.pid,
      engines: [...this.available.keys()],
      versions: this.versions,
      queues: this.config.workers.queues,
      seenAt: Date.now(),
    };
    await within(this.board.publish(capabilities), PUBLISH_TIMEOUT_MS, 'Redis').catch((error: unknown) =>
      this.logger.warn(`capabilities not published (retried in ${PUBLISH_EVERY_MS / 1000} s): ${(error as Error).message}`),
    );
  }
}
