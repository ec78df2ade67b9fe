import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { Redis } from 'ioredis';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/app-config.token.js';
import { redisOptionsFromUrl } from '../queue/redis-options.js';

/** A Redis connection of the health checks alone, quick to answer "is Redis up?": no offline queue, no waiting. */
@Injectable()
export class RedisHealthClient implements OnModuleDestroy {
  private readonly client: Redis;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.client = new Redis({
      ...redisOptionsFromUrl(config.redisUrl),
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      connectTimeout: 1000,
      retryStrategy: (attempt) => Math.min(attempt * 500, 5000),
    });
    this.client.on('error', () => undefined);
  }

  async ping(timeoutMs: number): Promise<boolean> {
    try {
      if (this.client.status === 'wait') await this.client.connect();
      return (await withTimeout(this.client.ping(), timeoutMs)) === 'PONG';
    } catch {
      return false;
    }
  }

  /** A hash, or undefined when Redis does not answer in time. */
  async hgetall(key: string, timeoutMs: number): Promise<Record<string, string> | undefined> {
    try {
      if (this.client.status === 'wait') await this.client.connect();
      return await withTimeout(this.client.hgetall(key), timeoutMs);
    } catch {
      return undefined;
    }
  }

  onModuleDestroy(): void {
    this.client.disconnect();
  }
}

export function withTimeout<T>(promise: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
