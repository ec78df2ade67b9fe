import { dropRedisKeys, TEST_REDIS_URL, uniqueQueuePrefix } from '@fileshift/testing';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { AppConfig } from '../src/config/app-config.js';
import { RateLimitStore } from '../src/rate-limit/rate-limit.store.js';

const prefix = uniqueQueuePrefix('ratelimit-store');
const config = { redisUrl: TEST_REDIS_URL, queuePrefix: prefix } as AppConfig;
const redis = new Redis(TEST_REDIS_URL);

afterAll(async () => {
  await dropRedisKeys(prefix);
  redis.disconnect();
});

/** Watches (without changing) the calls an instance makes to its counting script on Redis. */
const watchRoundTrips = (store: RateLimitStore) => vi.spyOn((store as unknown as { redis: { countHits: () => Promise<number[]> } }).redis, 'countHits');

describe('RateLimitStore on Redis, two instances of the API', () => {
  it('gives every hit its own count across instances, lets no more than the limit through, and asks Redis once per block for a busy client', async () => {
    const instances = [new RateLimitStore(config), new RateLimitStore(config)];
    const window = { seconds: 3600, limit: 3000 };
    // Keep every hit inside one window of the hour.
    const now = Date.now();
    const roundTrips = instances.map(watchRoundTrips);
    const counts: number[] = [];
    for (let turn = 0; turn < 400; turn++) {
      const hits = instances.flatMap((store) => Array.from({ length: 5 }, () => store.hit('busy-client', window, now)));
      counts.push(...(await Promise.all(hits)).map(({ count }) => count));
    }
    const calls = roundTrips.reduce((sum, spy) => sum + spy.mock.calls.length, 0);
    for (const store of instances) store.onModuleDestroy();

    expect(counts).toHaveLength(4000);
    expect(new Set(counts).size).toBe(4000);
    const admitted = counts.filter((count) => count <= window.limit).length;
    expect(admitted).toBeLessThanOrEqual(window.limit);
    expect(admitted).toBeGreaterThan(window.limit - 2 * 64);
    const stored = Number(await redis.get(`${prefix}:ratelimit:3600:${Math.floor(now / 1000 / 3600)}:busy-client`));
    expect(stored).toBeGreaterThanOrEqual(4000);
    // A round trip per block, not per hit or per turn.
    expect(calls).toBeLessThan(400);
  });
});
