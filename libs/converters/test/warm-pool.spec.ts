import { describe, expect, it } from 'vitest';
import { WarmPool, type WarmProcess } from '../src/platform/warm-pool.js';

/** A process that starts when told to and records its stop. */
class FakeProcess implements WarmProcess {
  ended = false;
  requests = 0;
  stopped = false;
  async stop(): Promise<void> {
    this.stopped = this.ended = true;
  }
  killNow(): void {
    this.ended = true;
  }
}

function poolOf(size: number) {
  const started: FakeProcess[] = [];
  const pending: Array<() => void> = [];
  const pool = new WarmPool<FakeProcess>({
    size,
    maxRequests: 2,
    spawn: () =>
      new Promise((resolve) => {
        const process = new FakeProcess();
        started.push(process);
        pending.push(() => resolve(process));
      }),
    stopping: () => new Error('stopping'),
  });
  return { pool, started, finishStarts: () => pending.splice(0).forEach((finish) => finish()) };
}

describe('WarmPool', () => {
  it('a stop waits for the processes still starting and stops them: none outlives the pool', async () => {
    const { pool, started, finishStarts } = poolOf(2);
    void pool.start();
    await Promise.resolve();
    expect(started).toHaveLength(2);
    let stopped = false;
    const stopping = pool.stop().then(() => (stopped = true));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(stopped).toBe(false);
    finishStarts();
    await stopping;
    expect(started.every((process) => process.stopped)).toBe(true);
    expect(pool.live).toEqual([]);
  });

  it('retires a process once it has served its requests', async () => {
    const { pool, finishStarts } = poolOf(1);
    const first = pool.with(async (process) => process);
    await Promise.resolve();
    finishStarts();
    const process = await first;
    process.requests = 2;
    await pool.with(async () => undefined).catch(() => undefined);
    expect(process.stopped).toBe(true);
    finishStarts();
    await pool.stop();
  });
});
