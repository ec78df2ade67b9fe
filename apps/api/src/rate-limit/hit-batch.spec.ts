import { describe, expect, it } from 'vitest';
import { type CountHits, HitBatch } from './hit-batch.js';

/** An in-memory counter store that records each call it gets. */
function memoryCounter() {
  const totals = new Map<string, number>();
  const calls: Array<Parameters<CountHits>[0]> = [];
  const countHits: CountHits = async (keys) => {
    calls.push(keys);
    return keys.map(({ key, hits }) => {
      totals.set(key, (totals.get(key) ?? 0) + hits);
      return totals.get(key)!;
    });
  };
  return { countHits, calls };
}

describe('HitBatch', () => {
  it('counts the hits of one turn in one call, each hit with its own count in arrival order', async () => {
    const { countHits, calls } = memoryCounter();
    const batch = new HitBatch(countHits);
    const counts = await Promise.all([batch.take('a', 61, 1), batch.take('b', 61, 1), batch.take('a', 61, 1), batch.take('a', 61, 1)]);
    expect(counts).toEqual([1, 1, 2, 3]);
    expect(calls).toEqual([[{ key: 'a', hits: 3, expireSeconds: 61 }, { key: 'b', hits: 1, expireSeconds: 61 }]]);
  });

  it('goes on counting from the store total in the next turn', async () => {
    const { countHits, calls } = memoryCounter();
    const batch = new HitBatch(countHits);
    await Promise.all([batch.take('a', 61, 1), batch.take('a', 61, 1)]);
    expect(await Promise.all([batch.take('a', 61, 1), batch.take('a', 61, 1)])).toEqual([3, 4]);
    expect(calls).toHaveLength(2);
  });

  it('a failed call fails every hit of its turn, and the next turn is counted again', async () => {
    let fail = true;
    const { countHits } = memoryCounter();
    const batch = new HitBatch(async (keys) => {
      if (fail) throw new Error('Redis is down');
      return countHits(keys);
    });
    const failed = await Promise.allSettled([batch.take('a', 61, 1), batch.take('b', 61, 1)]);
    expect(failed.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    fail = false;
    expect(await batch.take('a', 61, 1)).toBe(1);
  });
});
