import { describe, expect, it } from 'vitest';
import { CountLeases } from './count-leases.js';
import { type CountHits, HitBatch } from './hit-batch.js';

/** One counter store (Redis) that several instances share; it records the counts each call took. */
function sharedCounter() {
  const totals = new Map<string, number>();
  const calls: number[] = [];
  const countHits: CountHits = async (keys) => {
    calls.push(keys.reduce((sum, { hits }) => sum + hits, 0));
    return keys.map(({ key, hits }) => {
      totals.set(key, (totals.get(key) ?? 0) + hits);
      return totals.get(key)!;
    });
  };
  return { countHits, calls, totals };
}

const WINDOW_ENDS_AT = 60_000;

/** One instance counting on its own store, on a clock the test moves. */
function oneInstance() {
  const store = sharedCounter();
  const clock = { now: 0 };
  return { store, clock, leases: new CountLeases(new HitBatch(store.countHits), () => clock.now) };
}

/** `hits` hits of one key in turn, `perTurn` at a time (one event-loop turn each), `stepMs` apart on the clock. */
async function hitInTurns(leases: CountLeases, clock: { now: number }, { hits, perTurn, limit, stepMs = 1, key = 'k' }: { hits: number; perTurn: number; limit: number; stepMs?: number; key?: string }) {
  const counts: number[] = [];
  for (let done = 0; done < hits; done += perTurn) {
    clock.now += stepMs;
    const turn = Array.from({ length: Math.min(perTurn, hits - done) }, () => leases.hit(key, 61, WINDOW_ENDS_AT, limit));
    counts.push(...(await Promise.all(turn)));
  }
  return counts;
}

describe('CountLeases', () => {
  it('asks the store for every hit of a quiet client, as plain counting would', async () => {
    const { store, clock, leases } = oneInstance();
    const counts = await hitInTurns(leases, clock, { hits: 5, perTurn: 1, limit: 1_000_000, stepMs: 2000 });
    expect(counts).toEqual([1, 2, 3, 4, 5]);
    expect(store.calls).toEqual([1, 1, 1, 1, 1]);
  });

  it("takes a busy client's counts ahead in growing blocks, each hit still getting its own count in order", async () => {
    const { store, clock, leases } = oneInstance();
    const counts = await hitInTurns(leases, clock, { hits: 1000, perTurn: 1, limit: 1_000_000 });
    expect(counts).toEqual(Array.from({ length: 1000 }, (_, i) => i + 1));
    // 1, then 1 + 1, 1 + 2, 1 + 4 … up to 1 + 64 a call.
    expect(store.calls.slice(0, 5)).toEqual([1, 2, 3, 5, 9]);
    expect(Math.max(...store.calls)).toBe(65);
    expect(store.calls.length).toBeLessThan(30);
    expect(store.totals.get('k')! - 1000).toBeLessThan(65);
  });

  it('takes nothing ahead near the limit: a small limit is counted exactly, hit by hit', async () => {
    const { store, clock, leases } = oneInstance();
    const counts = await hitInTurns(leases, clock, { hits: 12, perTurn: 1, limit: 10 });
    expect(counts).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    expect(store.calls).toEqual(Array.from({ length: 12 }, () => 1));
    expect(store.totals.get('k')).toBe(12);
  });

  it('lets no more hits through than the limit, however they spread over instances', async () => {
    const store = sharedCounter();
    const clock = { now: 0 };
    const instances = [0, 1, 2].map(() => new CountLeases(new HitBatch(store.countHits), () => clock.now));
    const limit = 2000;
    const counts: number[] = [];
    for (let turn = 0; turn < 300; turn++) {
      clock.now += 1;
      // Each instance gets a few hits of the same client per turn.
      const hits = instances.flatMap((instance, i) => Array.from({ length: 1 + ((turn + i) % 5) }, () => instance.hit('k', 61, WINDOW_ENDS_AT, limit)));
      counts.push(...(await Promise.all(hits)));
    }
    expect(new Set(counts).size).toBe(counts.length);
    const admitted = counts.filter((count) => count <= limit).length;
    expect(counts.length).toBeGreaterThan(limit);
    expect(admitted).toBeLessThanOrEqual(limit);
    // Refused early by at most the counts the instances still held when the limit neared.
    expect(admitted).toBeGreaterThan(limit - 3 * 64);
    expect(store.calls.length).toBeLessThan(counts.length / 4);
  });

  it('hands out counts of a block being taken one by one to the hits that arrive meanwhile', async () => {
    const { clock, leases } = oneInstance();
    await hitInTurns(leases, clock, { hits: 3, perTurn: 1, limit: 1_000_000 });
    // A turn of 20 hits: the first takes a block, the others are counted with it; none is counted twice.
    const counts = await hitInTurns(leases, clock, { hits: 20, perTurn: 20, limit: 1_000_000 });
    expect(new Set(counts).size).toBe(20);
    expect(Math.min(...counts)).toBeGreaterThan(3);
  });

  it('forgets quiet keys and ended windows', async () => {
    const { clock, leases } = oneInstance();
    await hitInTurns(leases, clock, { hits: 50, perTurn: 1, limit: 1_000_000, key: 'busy' });
    await hitInTurns(leases, clock, { hits: 1, perTurn: 1, limit: 1_000_000, key: 'quiet' });
    expect(leases.size).toBe(2);
    clock.now += 1500;
    await hitInTurns(leases, clock, { hits: 1, perTurn: 1, limit: 1_000_000, key: 'other' });
    // The busy key still holds counts of its window; the quiet one held none.
    expect(leases.size).toBe(2);
    clock.now = WINDOW_ENDS_AT + 1000;
    await hitInTurns(leases, clock, { hits: 1, perTurn: 1, limit: 1_000_000, key: 'next-window' });
    expect(leases.size).toBe(1);
  });

  it('a failed take fails its hits, and the next hit asks again', async () => {
    let fail = false;
    const store = sharedCounter();
    const clock = { now: 0 };
    const leases = new CountLeases(
      new HitBatch(async (keys) => {
        if (fail) throw new Error('Redis is down');
        return store.countHits(keys);
      }),
      () => clock.now,
    );
    await hitInTurns(leases, clock, { hits: 2, perTurn: 1, limit: 1_000_000, stepMs: 2000 });
    fail = true;
    await expect(hitInTurns(leases, clock, { hits: 1, perTurn: 1, limit: 1_000_000, stepMs: 2000 })).rejects.toThrow('Redis is down');
    fail = false;
    expect(await hitInTurns(leases, clock, { hits: 1, perTurn: 1, limit: 1_000_000, stepMs: 2000 })).toEqual([3]);
  });
});
