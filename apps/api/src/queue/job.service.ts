import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import type { JobsOptions, Queue } from 'bullmq';
import { type JobName, type JobPayloads, QUEUE_OF_JOB, QueueName } from './job-contract.js';

/** The one gateway to BullMQ: typed enqueueing, schedules and queue facts. */
@Injectable()
export class JobService {
  private readonly queues: Record<QueueName, Queue>;

  constructor(@InjectQueue(QueueName.Maintenance) maintenance: Queue, @InjectQueue(QueueName.Conversion) conversion: Queue) {
    this.queues = { [QueueName.Maintenance]: maintenance, [QueueName.Conversion]: conversion };
  }

  async enqueue<N extends JobName>(name: N, payload: JobPayloads[N], options: JobsOptions = {}): Promise<string> {
    const job = await this.queueOf(name).add(name, payload, {
      removeOnComplete: { age: 3600, count: 1000 },
      removeOnFail: { age: 24 * 3600 },
      ...options,
    });
    return job.id!;
  }

  /** Creates or updates a repeating job; safe to call from every instance at start-up. */
  async schedule<N extends JobName>(name: N, everyMs: number, payload: JobPayloads[N]): Promise<void> {
    await this.queueOf(name).upsertJobScheduler(name, { every: everyMs }, { name, data: payload });
  }

  queueOf(name: JobName): Queue {
    return this.queues[QUEUE_OF_JOB[name]];
  }
}
