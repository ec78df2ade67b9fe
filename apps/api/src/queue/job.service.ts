import { InjectQueue } from '@nestjs/bullmq';
import { Inject, Injectable } from '@nestjs/common';
import type { JobsOptions, JobState, Queue, RedisClient } from 'bullmq';
import { DEPLOYMENT, type Deployment } from '../deployment/deployment.js';
import { type JobEnvelope, type JobName, type JobPayloads, QUEUE_OF_JOB, QueueName } from './job-contract.js';

/** The one gateway to BullMQ: typed enqueueing (every job carries this deployment's id), schedules and job states. */
@Injectable()
export class JobService {
  private readonly queues: Record<QueueName, Queue>;

  constructor(
    @InjectQueue(QueueName.Maintenance) maintenance: Queue,
    @InjectQueue(QueueName.Documents) documents: Queue,
    @InjectQueue(QueueName.Media) media: Queue,
    @InjectQueue(QueueName.Images) images: Queue,
    @InjectQueue(QueueName.Webhooks) webhooks: Queue,
    @Inject(DEPLOYMENT) private readonly deployment: Deployment,
  ) {
    this.queues = { [QueueName.Maintenance]: maintenance, [QueueName.Documents]: documents, [QueueName.Media]: media, [QueueName.Images]: images, [QueueName.Webhooks]: webhooks };
  }

  /** Adds a job; with a `jobId` option, adding the same id again while BullMQ still holds it changes nothing. */
  async enqueue<N extends JobName>(name: N, payload: JobPayloads[N], options: JobsOptions = {}): Promise<string> {
    const job = await this.queueOf(name).add(name, this.envelope(name, payload), {
      removeOnComplete: { age: 3600, count: 1000 },
      removeOnFail: { age: 24 * 3600 },
      ...options,
    });
    return job.id!;
  }

  /** Creates or updates a repeating job of this deployment; safe to call from every instance at any time. */
  async schedule<N extends JobName>(name: N, everyMs: number, payload: JobPayloads[N]): Promise<void> {
    await this.queueOf(name).upsertJobScheduler(this.schedulerId(name), { every: everyMs }, { name, data: this.envelope(name, payload) });
  }

  async isScheduled(name: JobName): Promise<boolean> {
    return Boolean(await this.queueOf(name).getJobScheduler(this.schedulerId(name)));
  }

  /** Where BullMQ has a job: 'unknown' when it has none (never added, removed, or Redis lost it). */
  async stateOf(name: JobName, jobId: string): Promise<JobState | 'unknown'> {
    return this.queueOf(name).getJobState(jobId);
  }

  /** Removes a job BullMQ holds (not an active one, which its worker still locks); false when it could not. */
  async remove(name: JobName, jobId: string): Promise<boolean> {
    return (await this.queueOf(name).remove(jobId)) === 1;
  }

  /** A Redis connection of the queues, for facts about the prefix itself. */
  redis(): Promise<RedisClient> {
    return this.queues[QueueName.Maintenance].getBackend().client;
  }

  private envelope<N extends JobName>(_name: N, payload: JobPayloads[N]): JobEnvelope<N> {
    return { deploymentId: this.deployment.id, payload };
  }

  /** Scheduler ids carry the deployment: two deployments on one prefix each keep their own schedule. */
  private schedulerId(name: JobName): string {
    return `${name}:${this.deployment.id}`;
  }

  queueOf(name: JobName): Queue {
    return this.queues[QUEUE_OF_JOB[name]];
  }
}
