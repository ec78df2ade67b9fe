/** One key's takers in a batch: how many counts in all, the expiry a new window gets, and who waits for which. */
interface PendingKey {
  hits: number;
  expireSeconds: number;
  takers: Array<{ counts: number; resolve(first: number): void; reject(error: unknown): void }>;
}

/** Counts every key hit `hits` times in one call (INCRBY, expiry set on a new key), each key's new total in order. */
export type CountHits = (keys: readonly { key: string; hits: number; expireSeconds: number }[]) => Promise<number[]>;

/**
 * Coalesces the hits of one event-loop turn into one call to the counter store: under load many requests are
 * counted per turn, and a round trip each would cost more than their own work. Each taker still gets its own
 * counts, as if counted alone: a key taken n times in all whose total becomes t gave out t-n+1 … t, in arrival order.
 */
export class HitBatch {
  private pending = new Map<string, PendingKey>();
  private scheduled = false;

  constructor(private readonly countHits: CountHits) {}

  /** Takes `counts` consecutive counts of the key; resolves to the first of them. */
  take(key: string, expireSeconds: number, counts: number): Promise<number> {
    return new Promise((resolve, reject) => {
      const entry = this.pending.get(key) ?? { hits: 0, expireSeconds, takers: [] };
      entry.hits += counts;
      entry.takers.push({ counts, resolve, reject });
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
      batch.forEach(([, { hits, takers }], i) => {
        let next = totals[i]! - hits + 1;
        for (const taker of takers) {
          taker.resolve(next);
          next += taker.counts;
        }
      });
    } catch (error) {
      for (const [, { takers }] of batch) for (const taker of takers) taker.reject(error);
    }
  }
}
