import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { Redis } from 'ioredis';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/app-config.token.js';
import { DEPLOYMENT, type Deployment } from '../deployment/deployment.js';
import { redisOptionsFromUrl } from '../queue/redis-options.js';
import { within } from '../queue/within.js';
import { ConversionJobsRepository } from './conversion-jobs.repository.js';

const ANNOUNCE_TIMEOUT_MS = 1000;
/** How often, while any request waits, one query looks for ended jobs whose announcement was lost. */
export const JOB_END_SWEEP_MS = 2000;

/**
 * Workers announce that a job ended (Redis pub/sub, per deployment, so every API replica hears it); a request
 * waiting for a job (the key API's convert, a long-polled x402 status) wakes at once instead of polling the
 * database. An announcement may be lost (Redis down, a subscriber reconnecting), so while anyone waits, one query
 * every JOB_END_SWEEP_MS asks which of the waited-for jobs ended, for all of them at once: waiting requests cost
 * memory, not queries.
 */
@Injectable()
export class JobEndSignals implements OnModuleDestroy {
  private publisher?: Redis;
  private subscriber?: Redis;
  private readonly waiters = new Map<string, Set<() => void>>();
  private count = 0;
  private sweepTimer?: NodeJS.Timeout;
  private destroyed = false;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(DEPLOYMENT) private readonly deployment: Deployment,
    private readonly jobs: ConversionJobsRepository,
  ) {}

  /** How many requests of this process wait for a job's end now. */
  get waiting(): number {
    return this.count;
  }

  /** The process is shutting down: waiting requests are answered with what they have. */
  get closed(): boolean {
    return this.destroyed;
  }

  /** Tells waiting requests that the job ended (best effort). */
  async announce(jobId: string): Promise<void> {
    this.publisher ??= this.connect();
    await within(this.publisher.publish(this.channel(), jobId), ANNOUNCE_TIMEOUT_MS, 'Redis').catch(() => undefined);
  }

  /**
   * Resolves when the job's end is announced (or found by the sweep, or the job is gone), after `ms` at the latest,
   * or when `signal` aborts. Call it before looking at the job, so an end announced in between is not missed.
   */
  waitForEnd(jobId: string, ms: number, signal: AbortSignal): Promise<void> {
    this.subscribe();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        const waiting = this.waiters.get(jobId);
        if (waiting?.delete(done)) this.count--;
        if (waiting?.size === 0) this.waiters.delete(jobId);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal.addEventListener('abort', done, { once: true });
      this.waiters.set(jobId, (this.waiters.get(jobId) ?? new Set()).add(done));
      this.count++;
      this.scheduleSweep();
    });
  }

  onModuleDestroy(): void {
    this.destroyed = true;
    clearTimeout(this.sweepTimer);
    for (const jobId of [...this.waiters.keys()]) this.wake(jobId);
    this.publisher?.disconnect();
    this.subscriber?.disconnect();
  }

  private wake(jobId: string): void {
    for (const done of [...(this.waiters.get(jobId) ?? [])]) done();
  }

  private scheduleSweep(): void {
    if (this.sweepTimer || this.destroyed) return;
    this.sweepTimer = setTimeout(() => void this.sweep(), JOB_END_SWEEP_MS);
  }

  /** Wakes the waiters of every job that is no longer to end (ended, or removed); one query for all. */
  private async sweep(): Promise<void> {
    const ids = [...this.waiters.keys()];
    try {
      const unended = await this.jobs.unended(ids);
      for (const jobId of ids) if (!unended.has(jobId)) this.wake(jobId);
    } catch {
      // The database is unreachable: each waiter still ends at its own deadline.
    }
    this.sweepTimer = undefined;
    if (this.waiters.size > 0) this.scheduleSweep();
  }

  private subscribe(): void {
    if (this.subscriber) return;
    this.subscriber = this.connect();
    this.subscriber.on('message', (_channel: string, jobId: string) => this.wake(jobId));
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
