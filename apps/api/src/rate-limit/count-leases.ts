import type { HitBatch } from './hit-batch.js';

/** A key asked for again within this time of its last take is busy: its next lease doubles. */
const BUSY_WITHIN_MS = 1000;
/** The most counts one instance takes ahead for one key. */
const MAX_LEASE = 64;
/** At most this share of the counts left under the limit is taken ahead: near the limit, every hit asks the store. */
const HEADROOM_SHARE = 16;

/** What this instance holds of one key's window: counts taken from the store and not handed out yet. */
interface KeyLease {
  /** The next count to hand out, and the last one taken (the highest count this instance knows of). */
  next: number;
  last: number;
  /** How many counts the last take reserved ahead. */
  size: number;
  takenAt: number;
  refilling: boolean;
  windowEndsAt: number;
}

/**
 * Counts a busy key's hits from blocks of counts taken ahead from the store, so that a client sending many
 * requests costs a round trip per block, not per request. Every count handed out is still a position in the
 * store's one sequence for the key, unique across instances: a limit stays an exact upper bound wherever the
 * requests land. A count taken ahead and never handed out (the client stopped, the window ended) is counted
 * anyway, so with several instances a busy client may be refused a few counts early; the lease is capped by a
 * share of the headroom under the limit, so a client near its limit, and every quiet one, asks the store each time.
 */
export class CountLeases {
  private readonly leases = new Map<string, KeyLease>();
  private sweptAt = 0;

  constructor(
    private readonly batch: HitBatch,
    private readonly clock: () => number = Date.now,
  ) {}

  /** The key's count for one more hit. */
  hit(key: string, expireSeconds: number, windowEndsAt: number, limit: number): number | Promise<number> {
    const now = this.clock();
    if (now - this.sweptAt >= BUSY_WITHIN_MS) this.sweep(now);
    const lease = this.leases.get(key);
    if (lease && lease.next <= lease.last) return lease.next++;
    // One block at a time: hits that come while it is being taken are counted one by one.
    if (lease?.refilling) return this.batch.take(key, expireSeconds, 1);
    return this.refill(key, expireSeconds, lease ?? { next: 1, last: 0, size: 0, takenAt: -Infinity, refilling: false, windowEndsAt }, limit, now);
  }

  /** How many keys this instance holds a lease or a recent take of (for tests). */
  get size(): number {
    return this.leases.size;
  }

  private async refill(key: string, expireSeconds: number, lease: KeyLease, limit: number, now: number): Promise<number> {
    lease.size = now - lease.takenAt < BUSY_WITHIN_MS ? Math.min(MAX_LEASE, Math.max(1, lease.size * 2)) : 0;
    const ahead = Math.max(0, Math.min(lease.size, Math.floor((limit - lease.last) / HEADROOM_SHARE)));
    lease.takenAt = now;
    lease.refilling = true;
    this.leases.set(key, lease);
    try {
      const first = await this.batch.take(key, expireSeconds, 1 + ahead);
      lease.next = first + 1;
      lease.last = first + ahead;
      return first;
    } finally {
      lease.refilling = false;
    }
  }

  /** Forgets windows that ended, and quiet keys that hold nothing. */
  private sweep(now: number): void {
    this.sweptAt = now;
    for (const [key, lease] of this.leases) {
      const quiet = !lease.refilling && lease.next > lease.last && now - lease.takenAt >= BUSY_WITHIN_MS;
      if (quiet || lease.windowEndsAt <= now) this.leases.delete(key);
    }
  }
}
