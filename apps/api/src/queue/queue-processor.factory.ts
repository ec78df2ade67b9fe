import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Inject, Injectable, Logger, type Type } from '@nestjs/common';
import { DelayedError, type Job } from 'bullmq';
import { DEPLOYMENT, type Deployment } from '../deployment/deployment.js';
import type { JobEnvelope, JobName, QueueName } from './job-contract.js';
import { JobHandlerRegistry } from './job-handler-registry.js';
import { RetryLaterError } from './retry-later.error.js';

/**
 * A worker renews its job locks every lockDuration/2; a worker that died stops renewing, and within about
 * lockDuration + stalledInterval another worker takes the job over.
 */
const LOCK_DURATION_MS = 15_000;
/** A job of another deployment goes back to wait this long, so that deployment's workers can take it. */
const FOREIGN_JOB_DELAY_MS = 1000;
/** One warning per foreign deployment per this long, not one per job. */
const FOREIGN_WARNING_EVERY_MS = 60_000;

export function createQueueProcessor(queue: QueueName, concurrency: number): Type<WorkerHost> {
  @Processor(queue, { concurrency, lockDuration: LOCK_DURATION_MS, stalledInterval: LOCK_DURATION_MS, maxStalledCount: 2 })
  @Injectable()
  class QueueProcessor extends WorkerHost {
    private readonly logger = new Logger(`${queue}QueueProcessor`);
    private readonly warnedAt = new Map<string, number>();

    constructor(
      private readonly registry: JobHandlerRegistry,
      @Inject(DEPLOYMENT) private readonly deployment: Deployment,
    ) {
      super();
    }

    /** Hands a job of this deployment to its `@OnJob` handler; leaves any other job alone, and says so. */
    async process(job: Job<Partial<JobEnvelope>>, token?: string): Promise<unknown> {
      const owner = job.data?.deploymentId;
      if (owner !== this.deployment.id) {
        this.warnForeign(job, owner);
        await job.moveToDelayed(Date.now() + FOREIGN_JOB_DELAY_MS, token);
        throw new DelayedError();
      }
      try {
        return await this.registry.run(job.name as JobName, job.data.payload as JobEnvelope['payload'], { jobId: job.id ?? '', attempt: job.attemptsMade + 1, enqueuedAt: job.timestamp });
      } catch (error) {
        if (!(error instanceof RetryLaterError)) throw error;
        this.logger.debug(`job ${job.id} waits ${error.delayMs} ms: ${error.message}`);
        await job.moveToDelayed(Date.now() + error.delayMs, token);
        throw new DelayedError();
      }
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
