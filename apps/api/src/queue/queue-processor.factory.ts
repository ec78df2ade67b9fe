import { Processor, WorkerHost } from '@nestjs/bullmq';
import { setTimeout as sleep } from 'node:timers/promises';
import { Inject, Injectable, Logger, type OnModuleDestroy, type Type } from '@nestjs/common';
import { DelayedError, type Job } from 'bullmq';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/app-config.token.js';
import { DEPLOYMENT, type Deployment } from '../deployment/deployment.js';
import type { JobEnvelope, JobName, QueueName } from './job-contract.js';
import { JobHandlerRegistry } from './job-handler-registry.js';
import { RetryLaterError } from './retry-later.error.js';
import { RunningCount } from './running-count.js';

/**
 * A worker renews its job locks every lockDuration/2; a worker that died stops renewing, and within about
 * lockDuration + stalledInterval another worker takes the job over.
 */
const LOCK_DURATION_MS = 15_000;
/** A job of another deployment goes back to wait this long, so that deployment's workers can take it. */
const FOREIGN_JOB_DELAY_MS = 1000;
/** One warning per foreign deployment per this long, not one per job. */
const FOREIGN_WARNING_EVERY_MS = 60_000;
/** What a shutdown leaves for the last steps (the engines, the stores) after its running jobs had their time. */
const SHUTDOWN_RESERVE_MS = 5000;

export function createQueueProcessor(queue: QueueName, concurrency: number): Type<WorkerHost> {
  @Processor(queue, { concurrency, lockDuration: LOCK_DURATION_MS, stalledInterval: LOCK_DURATION_MS, maxStalledCount: 2 })
  @Injectable()
  class QueueProcessor extends WorkerHost implements OnModuleDestroy {
    private readonly logger = new Logger(`${queue}QueueProcessor`);
    private readonly warnedAt = new Map<string, number>();
    private readonly running = new RunningCount();
    /**
     * Set when the shutdown begins. A paused BullMQ worker still processes a job that its blocking fetch returns after
     * the pause (its main loop drains what it fetched), possibly after the running jobs were waited for: run then, the
     * job would race the shutdown (a webhook posted, its answer never recorded, posted again by the next worker).
     */
    private closing = false;

    constructor(
      private readonly registry: JobHandlerRegistry,
      @Inject(DEPLOYMENT) private readonly deployment: Deployment,
      @Inject(APP_CONFIG) private readonly config: AppConfig,
    ) {
      super();
    }

    /**
     * Stops taking jobs, gives the running ones the shutdown's time to end, then closes the worker without BullMQ's
     * own wait for them: that graceful close was seen never to end (it waits for its blocking connection to report
     * its end), holding the whole shutdown. A job still running after that is taken over once its lock lapses.
     */
    async onModuleDestroy(): Promise<void> {
      this.closing = true;
      await this.worker.pause(true);
      if (this.running.size > 0) this.logger.log(`shutdown: waiting for ${this.running.size} running job(s)`);
      await Promise.race([this.running.idle(), sleep(Math.max(1000, this.config.shutdownTimeoutMs - SHUTDOWN_RESERVE_MS), undefined, { ref: false })]);
      await this.worker.close(true);
    }

    /** Hands a job of this deployment to its `@OnJob` handler; leaves any other job alone, and says so. */
    async process(job: Job<Partial<JobEnvelope>>, token?: string): Promise<unknown> {
      // Handed back as it is (not an attempt), for another worker to take at once.
      if (this.closing) return this.handBack(job, token, 0);
      const owner = job.data?.deploymentId;
      if (owner !== this.deployment.id) {
        this.warnForeign(job, owner);
        return this.handBack(job, token, FOREIGN_JOB_DELAY_MS);
      }
      try {
        return await this.running.run(() => this.registry.run(job.name as JobName, job.data.payload as JobEnvelope['payload'], { jobId: job.id ?? '', attempt: job.attemptsMade + 1, enqueuedAt: job.timestamp }));
      } catch (error) {
        if (!(error instanceof RetryLaterError)) throw error;
        this.logger.debug(`job ${job.id} waits ${error.delayMs} ms: ${error.message}`);
        return this.handBack(job, token, error.delayMs);
      }
    }

    /** Puts the job back in the queue to run in `delayMs`, without counting an attempt. */
    private async handBack(job: Job, token: string | undefined, delayMs: number): Promise<never> {
      await job.moveToDelayed(Date.now() + delayMs, token);
      throw new DelayedError();
    }

    private warnForeign(job: Job, owner: string | undefined): void {
      const key = owner ?? '(none)';
      const last = this.warnedAt.get(key) ?? 0;
      if (Date.now() - last < FOREIGN_WARNING_EVERY_MS) return;
      this.warnedAt.set(key, Date.now());
      this.logger.warn(
        `leaving job ${job.id} (${job.name}) alone: it belongs to deployment ${owner ?? '(unnamed, written by another program)'}, ` +
          `not to this one (${this.deployment.id}, ${this.deployment.database}). Another deployment uses this QUEUE_PREFIX on the same Redis; ` +
          'give each deployment its own QUEUE_PREFIX.',
      );
    }
  }
  Object.defineProperty(QueueProcessor, 'name', { value: `${queue}QueueProcessor` });
  return QueueProcessor;
}
