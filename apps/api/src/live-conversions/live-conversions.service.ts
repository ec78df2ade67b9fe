import { Injectable, Logger } from '@nestjs/common';
import { ConversionGraph, type ConversionPlan, ENGINE_DESCRIPTORS } from '@fileshift/converters';
import { within } from '../queue/within.js';
import { CAPABILITIES_TTL_MS, CapabilityBoard, type WorkerCapabilities } from './capability-board.js';

/** How long the graph of the live workers is reused before the board is read again. */
const FRESH_MS = 2000;
const READ_TIMEOUT_MS = 1000;

/** What the live workers can convert: the graph of their engines, and whether some worker can run a plan. */
export interface LiveConversions {
  graph: ConversionGraph;
  /** Some live worker has every engine of the plan and serves the queue of its engine class. */
  canRun(plan: ConversionPlan): boolean;
  /** The plans from one format to another some live worker can run, cheapest first. */
  plans(from: string, to: string): ConversionPlan[];
}

/**
 * The live conversions: what the service can convert right now, from the capabilities the workers publish in Redis. The API
 * validates requests, lists output formats and reports detection's `convertible_to` from it, and never
 * starts or configures an engine. Workers are remembered until their last announcement is 30 s old, so a
 * Redis that restarted empty (or cannot be read) does not make the service forget them at once.
 */
@Injectable()
export class LiveConversionsService {
  private readonly logger = new Logger(LiveConversionsService.name);
  private readonly workers = new Map<string, WorkerCapabilities>();
  private live: LiveConversions = liveConversions([]);
  private engines = '';
  private readAt = 0;
  private reading?: Promise<LiveConversions>;

  constructor(private readonly board: CapabilityBoard) {}

  /** The conversions of the live workers (read at most every 2 s, one read at a time). */
  async current(): Promise<LiveConversions> {
    if (Date.now() - this.readAt < FRESH_MS) return this.live;
    this.reading ??= this.read().finally(() => (this.reading = undefined));
    return this.reading;
  }

  private async read(): Promise<LiveConversions> {
    const now = Date.now();
    try {
      for (const worker of await within(this.board.live(now), READ_TIMEOUT_MS, 'Redis')) {
        if ((this.workers.get(worker.workerId)?.seenAt ?? 0) <= worker.seenAt) this.workers.set(worker.workerId, worker);
      }
    } catch (error) {
      this.logger.warn(`workers' capabilities not read; those known stand until they are 30 s old: ${(error as Error).message}`);
    }
    for (const [id, worker] of this.workers) if (now - worker.seenAt > CAPABILITIES_TTL_MS) this.workers.delete(id);
    const workers = [...this.workers.values()];
    const engines = [...new Set(workers.flatMap((worker) => worker.engines))].sort().join();
    if (engines !== this.engines) this.logger.log(`live workers' engines: ${engines || 'none'}`);
    this.engines = engines;
    this.live = liveConversions(workers);
    this.readAt = Date.now();
    return this.live;
  }
}

const ENGINE_CLASS = new Map(ENGINE_DESCRIPTORS.map((descriptor) => [descriptor.id, descriptor.engineClass]));

/**
 * Pure: the conversions a set of workers offers. An engine counts on a worker that serves its engine class:
 * a worker started for images only (`WORKER_QUEUES=images`) may well have LibreOffice installed, but no queue
 * of it runs documents, so its LibreOffice offers nothing. (A plan of one class may take a step on an engine
 * of another, e.g. poppler then sharp for pdf → webp; such a plan is offered when some worker serves each
 * engine's class, and runs on a worker of the plan's class that has every engine.)
 */
export function liveConversions(workers: readonly WorkerCapabilities[]): LiveConversions {
  const engines = new Set(workers.flatMap((worker) => worker.engines.filter((engine) => worker.queues.some((queue) => queue === ENGINE_CLASS.get(engine)))));
  const graph = new ConversionGraph(ENGINE_DESCRIPTORS.filter((descriptor) => engines.has(descriptor.id)));
  const canRun = (plan: ConversionPlan) =>
    workers.some((worker) => worker.queues.includes(plan.engineClass) && plan.steps.every((step) => worker.engines.includes(step.engine)));
  return { graph, canRun, plans: (from, to) => graph.plans(from, to).filter(canRun) };
}
