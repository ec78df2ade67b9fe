import type { PaymentRequired } from '@x402/core/types';
import { describe, expect, it } from 'vitest';
import { ChallengeCache, type OfferedChallenge } from '../src/challenge-cache.js';

const offered = (amount: string): OfferedChallenge => ({
  challenge: { x402Version: 2, resource: { url: 'http://localhost/x', description: '', mimeType: '' }, accepts: [{ amount } as PaymentRequired['accepts'][number]] },
  headers: { 'PAYMENT-REQUIRED': amount },
});

describe('ChallengeCache', () => {
  it('builds a key once and answers the same frozen challenge after', async () => {
    const cache = new ChallengeCache();
    let builds = 0;
    const build = async () => (builds++, offered('2000'));
    const first = await cache.get('a', build);
    const second = await cache.get('a', build);
    expect(builds).toBe(1);
    expect(second).toBe(first);
    expect(Object.isFrozen(first!.challenge.accepts[0])).toBe(true);
    expect(Object.isFrozen(first!.headers)).toBe(true);
    // Serialised once, as every answer sends it.
    expect(JSON.parse(first!.body)).toEqual(offered('2000').challenge);
  });

  it('keeps at most its capacity, dropping the oldest', async () => {
    const cache = new ChallengeCache(2);
    let builds = 0;
    const build = async () => (builds++, offered('1'));
    for (const key of ['a', 'b', 'c', 'b', 'a']) await cache.get(key, build);
    // a, b, c built; c pushed a out; b still there; a built again.
    expect(builds).toBe(4);
  });

  it('never keeps a failure or a non-challenge', async () => {
    const cache = new ChallengeCache();
    await expect(cache.get('a', () => Promise.reject(new Error('facilitator down')))).rejects.toThrow('facilitator down');
    expect(await cache.get('a', async () => undefined)).toBeUndefined();
    expect(await cache.get('a', async () => offered('3'))).toMatchObject(offered('3'));
  });
});
