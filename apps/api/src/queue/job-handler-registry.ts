import { Injectable, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { ALL_JOBS, type JobName, type JobPayloads } from './job-contract.js';
import { ON_JOB_METADATA } from './on-job.decorator.js';

type Handler = (payload: unknown, context: JobContext) => Promise<unknown>;

export interface JobContext {
  /** The BullMQ job id. */
  jobId: string;
  /** 1 for the first run of this BullMQ job, 2 for its first retry, … */
  attempt: number;
  /** When the job entered its queue (ms since the epoch), for the queue wait metric. */
  enqueuedAt: number;
}

/**
 * Finds the `@OnJob` handlers among the worker's providers. Refuses to start when a job of the
 * contract has no handler or two, so a deploy cannot silently drop a job type.
 */
@Injectable()
export class JobHandlerRegistry implements OnModuleInit {
  private readonly handlers = new Map<JobName, Handler>();

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
  ) {}

  onModuleInit(): void {
    for (const wrapper of this.discovery.getProviders()) {
      const instance = wrapper.instance as Record<string, unknown> | undefined;
      if (!instance || typeof instance !== 'object') continue;
      for (const methodName of this.scanner.getAllMethodNames(Object.getPrototypeOf(instance))) {
        const method = instance[methodName] as (...args: unknown[]) => Promise<unknown>;
        for (const name of this.reflector.get<JobName[] | undefined>(ON_JOB_METADATA, method) ?? []) {
          if (this.handlers.has(name)) throw new Error(`Two handlers for job "${name}"; there must be exactly one.`);
          this.handlers.set(name, method.bind(instance) as Handler);
        }
      }
    }
    const missing = ALL_JOBS.filter((name) => !this.handlers.has(name));
    if (missing.length > 0) throw new Error(`No handler for job(s): ${missing.join(', ')}. Refusing to start the worker.`);
  }

  async run<N extends JobName>(name: N, payload: JobPayloads[N], context: JobContext): Promise<unknown> {
    const handler = this.handlers.get(name);
    if (!handler) throw new Error(`Unknown job "${name}"`);
    return handler(payload, context);
  }
}
