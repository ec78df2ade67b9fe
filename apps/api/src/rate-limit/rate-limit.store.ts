import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { Redis } from 'ioredis';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/app-config.token.js';
import { redisOptionsFromUrl } from '../queue/redis-options.js';
import { CountLeases } from './count-leases.js';
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

/** A fixed window of `seconds` and the most hits it allows (which sizes the counts taken ahead). */
export interface LimitWindow {
  seconds: number;
  limit: number;
}

/**
 * Fixed-window counters in Redis, so limits hold across every instance of the API. A busy client's counts
 * are taken from Redis in blocks (CountLeases), every hit still getting its own position in the window.
 */
@Injectable()
export class RateLimitStore implements OnModuleDestroy {
  private readonly redis: WithCountHits;
  private readonly leases = new CountLeases(
    new HitBatch(async (keys) => {
      if (this.redis.status === 'wait') await this.redis.connect();
      return this.redis.countHits(keys.length, ...keys.map(({ key }) => key), ...keys.flatMap(({ hits, expireSeconds }) => [hits, expireSeconds]));
    }),
  );

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    this.redis = new Redis({ ...redisOptionsFromUrl(config.redisUrl), enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: true }) as WithCountHits;
    this.redis.defineCommand('countHits', { lua: COUNT_HITS });
    this.redis.on('error', () => undefined);
  }

  /** Counts one hit of `client` in the current window; returns the count and the seconds left in the window. */
  async hit(client: string, window: LimitWindow, now = Date.now()): Promise<WindowCount> {
    const [count] = await this.hitWindows(client, [window], now);
    return count!;
  }

  /** Counts one hit of `client` in windows of several lengths; the hits of one event-loop turn share one round trip to Redis. */
  async hitWindows(client: string, windows: readonly LimitWindow[], now = Date.now()): Promise<WindowCount[]> {
    const nowSeconds = Math.floor(now / 1000);
    return Promise.all(
      windows.map(async ({ seconds, limit }) => {
        const window = Math.floor(now / 1000 / seconds);
        const endsAt = (window + 1) * seconds;
        const count = await this.leases.hit(`${this.config.queuePrefix}:ratelimit:${seconds}:${window}:${client}`, seconds + 1, endsAt * 1000, limit);
        return { count, resetInSeconds: Math.max(1, endsAt - nowSeconds) };
      }),
    );
  }

  onModuleDestroy(): void {
    this.redis.disconnect();
  }
}
