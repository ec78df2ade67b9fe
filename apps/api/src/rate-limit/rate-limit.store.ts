import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { Redis } from 'ioredis';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/app-config.token.js';
import { redisOptionsFromUrl } from '../queue/redis-options.js';
import { HitBatch } from './hit-batch.js';

/**
 * INCRBY each key by its hits (ARGV pairs: hits, expiry), giving it its expiry when this call created it; one
 * script, so one round trip and no MULTI. Sent by its SHA once Redis knows it (ioredis falls back to EVAL).
 */
const COUNT_HITS = `
local counts = {}
for i, key in ipairs(KEYS) do
  local hits = tonumber(ARGV[2 * i - 1])
  counts[i] = redis.call('INCRBY', key, hits)
  if counts[i] == hits then redis.call('EXPIRE', key, ARGV[2 * i]) end
end
return counts`;

type WithCountHits = Redis & { countHits(numberOfKeys: number, ...keysThenArgs: Array<string | number>): Promise<number[]> };

export interface WindowCount {
  count: number;
  resetInSeconds: number;
}

/** Fixed-window counters in Redis, so limits hold across every instance of the API. */
@Injectable()
export class RateLimitStore implements OnModuleDestroy {
  private readonly redis: WithCountHits;
  private readonly batch = new HitBatch(async (keys) => {
    if (this.redis.status === 'wait') await this.redis.connect();
    return this.redis.countHits(keys.length, ...keys.map(({ key }) => key), ...keys.flatMap(({ hits, expireSeconds }) => [hits, expireSeconds]));
  });

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    this.redis = new Redis({ ...redisOptionsFromUrl(config.redisUrl), enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: true }) as WithCountHits;
    this.redis.defineCommand('countHits', { lua: COUNT_HITS });
    this.redis.on('error', () => undefined);
  }

  /** Counts one hit of `client` in the current window; returns the count and the seconds left in the window. */
  async hit(client: string, windowSeconds: number, now = Date.now()): Promise<WindowCount> {
    const [count] = await this.hitWindows(client, [windowSeconds], now);
    return count!;
  }

  /** Counts one hit of `client` in windows of several lengths; the hits of one event-loop turn share one round trip to Redis. */
  async hitWindows(client: string, windowsSeconds: readonly number[], now = Date.now()): Promise<WindowCount[]> {
    const nowSeconds = Math.floor(now / 1000);
    return Promise.all(
      windowsSeconds.map(async (seconds) => {
        const window = Math.floor(now / 1000 / seconds);
        const count = await this.batch.hit(`${this.config.queuePrefix}:ratelimit:${seconds}:${window}:${client}`, seconds + 1);
        return { count, resetInSeconds: Math.max(1, (window + 1) * seconds - nowSeconds) };
      }),
    );
  }

  onModuleDestroy(): void {
    this.redis.disconnect();
  }
}
