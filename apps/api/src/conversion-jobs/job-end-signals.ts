import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { Redis } from 'ioredis';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/app-config.token.js';
import { DEPLOYMENT, type Deployment } from '../deployment/deployment.js';
import { redisOptionsFromUrl } from '../queue/redis-options.js';
import { within } from '../queue/within.js';

const ANNOUNCE_TIMEOUT_MS = 1000;

/**
 * Workers announce that a job ended (Redis pub/sub, per deployment); a request waiting for a job (the
 * key API's convert) wakes at once instead of polling the database. Announcements may be lost (Redis down,
 * a subscriber reconnecting): a waiter is always also bounded in time, and checks the database then.
 */
@Injectable()
export class JobEndSignals implements OnModuleDestroy {
  private publisher?: Redis;
  private subscriber?: Redis;
  private readonly waiters = new Map<string, Set<() => void>>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(DEPLOYMENT) private readonly deployment: Deployment,
  ) {}

  /** Tells waiting requests that the job ended (best effort). */
  async announce(jobId: string): Promise<void> {
    this.publisher ??= this.connect();
    await within(this.publisher.publish(this.channel(), jobId), ANNOUNCE_TIMEOUT_MS, 'Redis').catch(() => undefined);
  }

  /**
   * Resolves when the job's end is announced, after `ms` at the latest, or when `signal` aborts. Call it
   * before looking at the job, so an end announced in between is not missed.
   */
  waitForEnd(jobId: string, ms: number, signal: AbortSignal): Promise<void> {
    this.subscribe();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        this.waiters.get(jobId)?.delete(done);
        if (this.waiters.get(jobId)?.size === 0) this.waiters.delete(jobId);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal.addEventListener('abort', done, { once: true });
      this.waiters.set(jobId, (this.waiters.get(jobId) ?? new Set()).add(done));
    });
  }

  onModuleDestroy(): void {
    this.publisher?.disconnect();
    this.subscriber?.disconnect();
  }

  private subscribe(): void {
    if (this.subscriber) return;
    this.subscriber = this.connect();
    this.subscriber.on('message', (_channel: string, jobId: string) => {
      for (const wake of [...(this.waiters.get(jobId) ?? [])]) wake();
    });
    void this.subscriber.subscribe(this.channel()).catch(() => undefined);
  }

  private connect(): Redis {
    const client = new Redis({ ...redisOptionsFromUrl(this.config.redisUrl), maxRetriesPerRequest: 1 });
    client.on('error', () => undefined);
    return client;
  }

  private channel(): string {
    return `${this.config.queuePrefix}:job-ends:${this.deployment.id}`;
  }
}
