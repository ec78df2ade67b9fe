import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Injectable, type Type } from '@nestjs/common';
import type { Job } from 'bullmq';
import type { JobName, QueueName } from './job-contract.js';
import { JobHandlerRegistry } from './job-handler-registry.js';

/** A BullMQ worker for one queue that hands each job to its `@OnJob` handler. */
/**
 * A worker renews its job locks every lockDuration/2; a worker that died stops renewing, and within about
 * lockDuration + stalledInterval another worker takes the job over.
 */
const LOCK_DURATION_MS = 15_000;

export function createQueueProcessor(queue: QueueName, concurrency: number): Type<WorkerHost> {
  @Processor(queue, { concurrency, lockDuration: LOCK_DURATION_MS, stalledInterval: LOCK_DURATION_MS, maxStalledCount: 2 })
  @Injectable()
  class QueueProcessor extends WorkerHost {
    constructor(private readonly registry: JobHandlerRegistry) {
      super();
    }

    async process(job: Job): Promise<unknown> {
      return this.registry.run(job.name as JobName, job.data, {
        jobId: job.id ?? '',
        attempt: job.attemptsMade + 1,
        reportProgress: (percent) => job.updateProgress(percent),
      });
    }
  }
  Object.defineProperty(QueueProcessor, 'name', { value: `${queue}QueueProcessor` });
  return QueueProcessor;
}
