/** One key's hits in a batch: how many, the expiry a new window gets, and who waits for which count. */
interface PendingKey {
  hits: number;
  expireSeconds: number;
  waiters: Array<{ resolve(count: number): void; reject(error: unknown): void }>;
}

/** Counts every key hit `hits` times in one call (INCRBY, expiry set on a new key), each key's new total in order. */
export type CountHits = (keys: readonly { key: string; hits: number; expireSeconds: number }[]) => Promise<number[]>;

/**
 * Coalesces the hits of one event-loop turn into one call to the counter store: under load many requests are
 * counted per turn, and a round trip each would cost more than their own work. Each hit still gets its own
 * count, as if counted alone: a key hit n times whose total becomes t gave its hits t-n+1 … t, in arrival order.
 */
export class HitBatch {
  private pending = new Map<string, PendingKey>();
  private scheduled = false;

  constructor(private readonly countHits: CountHits) {}

  /** The key's count after this hit. */
  hit(key: string, expireSeconds: number): Promise<number> {
    return new Promise((resolve, reject) => {
      const entry = this.pending.get(key) ?? { hits: 0, expireSeconds, waiters: [] };
      entry.hits++;
      entry.waiters.push({ resolve, reject });
      this.pending.set(key, entry);
      if (!this.scheduled) {
        this.scheduled = true;
        // After the poll phase: every request read in this turn has had its hit counted by then.
        setImmediate(() => void this.flush());
      }
    });
  }

  private async flush(): Promise<void> {
    const batch = [...this.pending];
    this.pending = new Map();
    this.scheduled = false;
    try {
      const totals = await this.countHits(batch.map(([key, { hits, expireSeconds }]) => ({ key, hits, expireSeconds })));
      batch.forEach(([, { hits, waiters }], i) => waiters.forEach((waiter, j) => waiter.resolve(totals[i]! - hits + 1 + j)));
    } catch (error) {
      for (const [, { waiters }] of batch) for (const waiter of waiters) waiter.reject(error);
    }
  }
}
