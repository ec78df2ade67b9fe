import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { Redis } from 'ioredis';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/app-config.token.js';
import { redisOptionsFromUrl } from '../queue/redis-options.js';

/** Fixed-window counters in Redis, so limits hold across every instance of the API. */
@Injectable()
export class RateLimitStore implements OnModuleDestroy {
  private readonly redis: Redis;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    this.redis = new Redis({ ...redisOptionsFromUrl(config.redisUrl), enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: true });
    this.redis.on('error', () => undefined);
  }

  /** Counts one hit of `client` in the current window; returns the count and the seconds left in the window. */
  async hit(client: string, windowSeconds: number, now = Date.now()): Promise<{ count: number; resetInSeconds: number }> {
    if (this.redis.status === 'wait') await this.redis.connect();
    const window = Math.floor(now / 1000 / windowSeconds);
    const key = `${this.config.queuePrefix}:ratelimit:${window}:${client}`;
    const [[, count]] = (await this.redis.multi().incr(key).expire(key, windowSeconds + 1).exec()) as [[null, number], unknown];
    return { count, resetInSeconds: Math.max(1, (window + 1) * windowSeconds - Math.floor(now / 1000)) };
  }

  onModuleDestroy(): void {
    this.redis.disconnect();
  }
}
