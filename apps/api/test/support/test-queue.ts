import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';

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
