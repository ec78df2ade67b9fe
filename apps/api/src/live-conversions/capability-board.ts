import { Inject, Injectable } from '@nestjs/common';
import type { EngineClass, SandboxSetting } from '@fileshift/converters';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/app-config.token.js';
import { DEPLOYMENT, type Deployment } from '../deployment/deployment.js';
import { JobService } from '../queue/job.service.js';

/** What one worker process can do, as it tells the API. */
export interface WorkerCapabilities {
  workerId: string;
  host: string;
  pid: number;
  /** The engines whose probe succeeded there. */
  engines: string[];
  versions: Record<string, string | undefined>;
  /** The engine classes whose queues it serves. */
  queues: EngineClass[];
  /** Whether its engines run in the engine sandbox, and what holds (absent from workers older than the sandbox). */
  sandbox?: WorkerSandbox;
  /** Whether the warm pools of its queues' engines have started (absent from workers older than this field). */
  warm?: boolean;
  seenAt: number;
}

/** A worker's engine sandbox, as it publishes it. */
export interface WorkerSandbox {
  setting: SandboxSetting;
  sandboxed: boolean;
  /** own-user, own-user-namespace or user-namespace (see the converters' sandbox), when sandboxed. */
  identity?: string;
  description: string;
}

/** A worker that has not renewed its capabilities this long is gone. */
export const CAPABILITIES_TTL_MS = 30_000;

/**
 * The workers' capabilities in Redis, one hash per deployment under the queue prefix: each worker
 * renews its entry every 10 s; readers ignore (and prune) entries older than 30 s.
 */
@Injectable()
export class CapabilityBoard {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(DEPLOYMENT) private readonly deployment: Deployment,
    private readonly jobs: JobService,
  ) {}

  async publish(capabilities: WorkerCapabilities): Promise<void> {
    await (await this.jobs.redis()).hset(this.key(), { [capabilities.workerId]: JSON.stringify(capabilities) });
  }

  async withdraw(workerId: string): Promise<void> {
    await (await this.jobs.redis()).hdel(this.key(), workerId);
  }

  /** The live workers' capabilities. */
  async live(now = Date.now()): Promise<WorkerCapabilities[]> {
    const redis = await this.jobs.redis();
    const { live, stale } = liveAmong(await redis.hgetall(this.key()), now);
    if (stale.length > 0) await redis.hdel(this.key(), ...stale);
    return live;
  }

  /** The Redis hash the workers publish to. */
  key(): string {
    return `${this.config.queuePrefix}:capabilities:${this.deployment.id}`;
  }
}

/** Pure: the live workers among a board's entries, and the ids of the stale or unreadable ones. */
export function liveAmong(entries: Record<string, string>, now: number): { live: WorkerCapabilities[]; stale: string[] } {
  const parsed = Object.entries(entries).map(([workerId, value]) => [workerId, parse(value)] as const);
  const stale = parsed.filter(([, capabilities]) => !capabilities || now - capabilities.seenAt > CAPABILITIES_TTL_MS).map(([workerId]) => workerId);
  const live = parsed.map(([, capabilities]) => capabilities).filter((capabilities): capabilities is WorkerCapabilities => Boolean(capabilities) && !stale.includes(capabilities!.workerId));
  return { live, stale };
}

function parse(value: string): WorkerCapabilities | undefined {
  try {
    const parsed = JSON.parse(value) as WorkerCapabilities;
    return Array.isArray(parsed.engines) && typeof parsed.seenAt === 'number' ? parsed : undefined;
  } catch {
    return undefined;
  }
}
