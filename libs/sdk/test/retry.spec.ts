import { describe, expect, it } from 'vitest';
import { ApiError, NetworkError, RateLimitedError } from '../src/index.js';
import { retrying } from '../src/retry.js';

/** A call that fails with `failures` in turn, then answers "ok"; it counts its attempts. */
function failingWith(...failures: Error[]) {
  let attempts = 0;
  return {
    call: async () => {
      const failure = failures[attempts++];
      if (failure) throw failure;
      return 'ok';
    },
    attempts: () => attempts,
  };
}

describe('retrying (the conversion helpers repeat only calls that are safe to repeat)', () => {
  it('repeats a call that got no answer, or was rate limited after its Retry-After', async () => {
    const flaky = failingWith(new NetworkError('fetch failed'), new RateLimitedError('slow down', 1));
    const startedAt = Date.now();
    expect(await retrying(flaky.call)).toBe('ok');
    expect(flaky.attempts()).toBe(3);
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(1_900); // 1 s after the lost answer, 1 s Retry-After
  });

  it('gives up after three attempts with the last failure', async () => {
    const down = failingWith(new NetworkError('one'), new NetworkError('two'), new NetworkError('three'));
    await expect(retrying(down.call)).rejects.toThrow('three');
    expect(down.attempts()).toBe(3);
  });

  it('does not repeat an answer that will not change', async () => {
    const refused = failingWith(new ApiError(422, 'validation_error', 'bad target_format'));
    await expect(retrying(refused.call)).rejects.toMatchObject({ status: 422 });
    expect(refused.attempts()).toBe(1);
  });

  it('stops waiting when the signal aborts', async () => {
    const limited = failingWith(new RateLimitedError('slow down', 60));
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('stopped by the test')), 50);
    const startedAt = Date.now();
    await expect(retrying(limited.call, controller.signal)).rejects.toThrow('stopped by the test');
    expect(Date.now() - startedAt).toBeLessThan(1_000);
  });
});
