import { randomBytes } from 'node:crypto';
import { Queue, QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import { JobName, QueueName } from '../../src/queue/job-contract.js';

export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A BullMQ prefix of one test run, and the removal of its keys afterwards. */
export function createTestQueuePrefix(): { prefix: string; drop(): Promise<void> } {
  const prefix = `fstest-${randomBytes(5).toString('hex')}`;
  return {
    prefix,
    drop: async () => {
      const redis = new Redis(TEST_REDIS_URL);
      try {
        let cursor = '0';
        do {
          const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
          if (keys.length > 0) await redis.del(...keys);
          cursor = next;
        } while (cursor !== '0');
      } finally {
        redis.disconnect();
      }
    },
  };
}

/** Queues the real maintenance.purge-expired job on a prefix and waits for a worker's answer. */
export async function runPurgeExpired(redisUrl: string, prefix: string, timeoutMs = 20_000): Promise<unknown> {
  const queue = new Queue(QueueName.Maintenance, { connection: { url: redisUrl }, prefix });
  const events = new QueueEvents(QueueName.Maintenance, { connection: { url: redisUrl }, prefix });
  try {
    await events.waitUntilReady();
    const job = await queue.add(JobName.PurgeExpired, { reason: 'manual' });
    return await job.waitUntilFinished(events, timeoutMs);
  } finally {
    await events.close();
    await queue.close();
  }
}
