import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Injectable, type Type } from '@nestjs/common';
import type { Job } from 'bullmq';
import type { JobName, QueueName } from './job-contract.js';
import { JobHandlerRegistry } from './job-handler-registry.js';

/** A BullMQ worker for one queue that hands each job to its `@OnJob` handler. */
export function createQueueProcessor(queue: QueueName, concurrency: number): Type<WorkerHost> {
  @Processor(queue, { concurrency })
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
