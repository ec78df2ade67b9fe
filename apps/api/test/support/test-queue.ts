import { type JobsOptions, Queue, QueueEvents } from 'bullmq';
import pg from 'pg';
import { dropRedisKeys, TEST_REDIS_URL, uniqueQueuePrefix } from '@fileshift/testing';
import { type JobEnvelope, JobName, type JobPayloads, QUEUE_OF_JOB, QueueName } from '../../src/queue/job-contract.js';

export { TEST_REDIS_URL };

/** A BullMQ prefix of one test run, and the removal of its keys afterwards. */
export function createTestQueuePrefix(): { prefix: string; drop(): Promise<void> } {
  const prefix = uniqueQueuePrefix('fstest');
  return { prefix, drop: () => dropRedisKeys(prefix) };
}

/** Where a test's service keeps its queue and its data. */
export interface QueueTarget {
  redisUrl: string;
  prefix: string;
  /** The deployment's database: jobs carry its identity, and workers of other deployments leave them alone. */
  databaseUrl: string;
}

/** The identity of the deployment whose database this is (the migrations created it). */
export async function deploymentIdOf(databaseUrl: string): Promise<string> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query('SELECT id FROM deployment_identity')).rows[0].id as string;
  } finally {
    await client.end();
  }
}

/** Queues a job of the contract for a deployment, as its own processes would. */
export async function enqueueFor<N extends JobName>(target: QueueTarget, name: N, payload: JobPayloads[N], options: JobsOptions = {}): Promise<string> {
  const queue = new Queue(QUEUE_OF_JOB[name], { connection: { url: target.redisUrl }, prefix: target.prefix });
  try {
    const envelope: JobEnvelope<N> = { deploymentId: await deploymentIdOf(target.databaseUrl), payload };
    return (await queue.add(name, envelope, options)).id!;
  } finally {
    await queue.close();
  }
}

/** Queues the real maintenance.purge-expired job for a deployment and waits for a worker's answer. */
export async function runPurgeExpired(target: QueueTarget, timeoutMs = 20_000): Promise<unknown> {
  const queue = new Queue(QueueName.Maintenance, { connection: { url: target.redisUrl }, prefix: target.prefix });
  const events = new QueueEvents(QueueName.Maintenance, { connection: { url: target.redisUrl }, prefix: target.prefix });
  try {
    await events.waitUntilReady();
    const envelope: JobEnvelope<JobName.PurgeExpired> = { deploymentId: await deploymentIdOf(target.databaseUrl), payload: { reason: 'manual' } };
    const job = await queue.add(JobName.PurgeExpired, envelope);
    return await job.waitUntilFinished(events, timeoutMs);
  } finally {
    await events.close();
    await queue.close();
  }
}
