import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/app-config.token.js';
import { DEPLOYMENT, type Deployment } from '../deployment/deployment.js';
import { JobService } from './job.service.js';

const ANNOUNCE_EVERY_MS = 15_000;
/** A deployment that announced itself this recently still uses the prefix. */
const RECENT_MS = 10 * 60_000;

interface Announcement {
  database: string;
  seenAt: number;
}

/**
 * Each process announces its deployment under the queue prefix, and warns at start-up when another
 * deployment announced itself there recently: two deployments on one prefix pass each other's jobs around.
 */
@Injectable()
export class SharedPrefixWatch implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(SharedPrefixWatch.name);
  private timer?: NodeJS.Timeout;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(DEPLOYMENT) private readonly deployment: Deployment,
    private readonly jobs: JobService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    try {
      const others = await this.othersOnPrefix();
      if (others.length > 0) {
        this.logger.warn(
          `QUEUE_PREFIX "${this.config.queuePrefix}" is also used by another deployment on this Redis ` +
            `(${others.map(([id, seen]) => `${id}: ${seen.database}`).join('; ')}). ` +
            'Each deployment leaves the other\'s jobs alone, but they pass them back and forth: give each deployment its own QUEUE_PREFIX.',
        );
      }
      await this.announce();
    } catch (error) {
      this.logger.warn(`could not check whether another deployment uses QUEUE_PREFIX "${this.config.queuePrefix}": ${(error as Error).message}`);
    }
    this.timer = setInterval(() => void this.announce().catch(() => undefined), ANNOUNCE_EVERY_MS).unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  private async othersOnPrefix(): Promise<Array<[string, Announcement]>> {
    const all: Record<string, string> = await (await this.jobs.redis()).hgetall(this.key());
    return Object.entries(all)
      .map(([id, value]): [string, Announcement] => [id, parse(value)])
      .filter(([id, seen]) => id !== this.deployment.id && Date.now() - seen.seenAt < RECENT_MS);
  }

  private async announce(): Promise<void> {
    const seen: Announcement = { database: this.deployment.database, seenAt: Date.now() };
    await (await this.jobs.redis()).hset(this.key(), { [this.deployment.id]: JSON.stringify(seen) });
  }

  private key(): string {
    return `${this.config.queuePrefix}:deployments`;
  }
}

function parse(value: string): Announcement {
  try {
    const parsed = JSON.parse(value) as Partial<Announcement>;
    return { database: String(parsed.database ?? 'unknown'), seenAt: Number(parsed.seenAt ?? 0) };
  } catch {
    return { database: 'unknown', seenAt: 0 };
  }
}
