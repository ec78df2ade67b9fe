import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { Redis } from 'ioredis';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/app-config.token.js';
import { redisOptionsFromUrl } from '../queue/redis-options.js';

/** INCR each key, giving it its expiry on the first hit; one script, so one round trip and no MULTI. */
const COUNT_HITS = `
local counts = {}
for i, key in ipairs(KEYS) do
  counts[i] = redis.call('INCR', key)
  if counts[i] == 1 then redis.call('EXPIRE', key, ARGV[i]) end
end
return counts`;

export interface WindowCount {
  count: number;
  resetInSeconds: number;
}

/** Fixed-window counters in Redis, so limits hold across every instance of the API. */
@Injectable()
export class RateLimitStore implements OnModuleDestroy {
  private readonly redis: Redis;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    // Auto-pipelining sends the hits of every request counted in one event-loop turn in one write, and reads their
    // answers in one read: under load a round trip to Redis per request would cost more than the request's own work.
    this.redis = new Redis({ ...redisOptionsFromUrl(config.redisUrl), enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: true, enableAutoPipelining: true });
    this.redis.on('error', () => undefined);
  }

  /** Counts one hit of `client` in the current window; returns the count and the seconds left in the window. */
  async hit(client: string, windowSeconds: number, now = Date.now()): Promise<WindowCount> {
    const [count] = await this.hitWindows(client, [windowSeconds], now);
    return count!;
  }

  /** Counts one hit of `client` in windows of several lengths, in one round trip to Redis. */
  async hitWindows(client: string, windowsSeconds: readonly number[], now = Date.now()): Promise<WindowCount[]> {
    if (this.redis.status === 'wait') await this.redis.connect();
    const windows = windowsSeconds.map((seconds) => ({ seconds, window: Math.floor(now / 1000 / seconds) }));
    const keys = windows.map(({ seconds, window }) => `${this.config.queuePrefix}:ratelimit:${seconds}:${window}:${client}`);
    const counts = (await this.redis.eval(COUNT_HITS, keys.length, ...keys, ...windows.map(({ seconds }) => seconds + 1))) as number[];
    return windows.map(({ seconds, window }, i) => ({
      count: counts[i]!,
      resetInSeconds: Math.max(1, (window + 1) * seconds - Math.floor(now / 1000)),
    }));
  }

  onModuleDestroy(): void {
    this.redis.disconnect();
  }
}
