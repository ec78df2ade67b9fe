import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { CapabilityBoard, liveAmong } from '../live-conversions/capability-board.js';
import { RedisHealthClient, withTimeout } from './redis-health.client.js';

export type DependencyState = 'up' | 'down';

export interface EngineReadiness {
  workers: number;
  sandboxed: number;
  off: number;
  unsandboxed: number;
}
const CHECK_TIMEOUT_MS = 1500;

/** Asks each dependency whether it answers, in parallel and bounded in time. */
@Injectable()
export class ReadinessService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly redis: RedisHealthClient,
    private readonly board: CapabilityBoard,
  ) {}

  /**
   * The live workers, how many run their engines sandboxed and how many without by choice (ENGINE_SANDBOX=off), from
   * their published capabilities, read over the health check's own connection (it fails fast while Redis is down);
   * undefined then. `unsandboxed` counts the others: workers running engines without the sandbox their setting
   * requires (one older than fail-closed sandboxing, or one that says nothing of its sandbox).
   */
  async engines(): Promise<EngineReadiness | undefined> {
    const entries = await this.redis.hgetall(this.board.key(), CHECK_TIMEOUT_MS);
    if (!entries) return undefined;
    const { live } = liveAmong(entries, Date.now());
    const sandboxed = live.filter((worker) => worker.sandbox?.sandboxed).length;
    const off = live.filter((worker) => worker.sandbox && !worker.sandbox.sandboxed && worker.sandbox.setting === 'off').length;
    return { workers: live.length, sandboxed, off, unsandboxed: live.length - sandboxed - off };
  }

  async check(): Promise<Record<'database' | 'redis', DependencyState>> {
    const [database, redis] = await Promise.all([this.databaseUp(), this.redis.ping(CHECK_TIMEOUT_MS)]);
    return { database: database ? 'up' : 'down', redis: redis ? 'up' : 'down' };
  }

  private async databaseUp(): Promise<boolean> {
    try {
      await withTimeout(this.dataSource.query('SELECT 1'), CHECK_TIMEOUT_MS);
      return true;
    } catch {
      return false;
    }
  }
}
