import { describe, expect, it } from 'vitest';
import { ApiError, NetworkError, RateLimitedError } from '../src/index.js';
import { systemClock } from '../src/clock.js';
import { retrying } from '../src/retry.js';
import { recordingClock } from './support/recording-clock.js';

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
  it('repeats a call that got no answer (after 1 s), or was rate limited (after its Retry-After)', async () => {
    const { clock, waits } = recordingClock();
    const flaky = failingWith(new NetworkError('fetch failed'), new RateLimitedError('slow down', 7));
    expect(await retrying(flaky.call, { sleep: clock.sleep })).toBe('ok');
    expect(flaky.attempts()).toBe(3);
    expect(waits).toEqual([1_000, 7_000]);
  });

  it('gives up after three attempts with the last failure, waiting longer after each lost answer', async () => {
    const { clock, waits } = recordingClock();
    const down = failingWith(new NetworkError('one'), new NetworkError('two'), new NetworkError('three'));
    await expect(retrying(down.call, { sleep: clock.sleep })).rejects.toThrow('three');
    expect(down.attempts()).toBe(3);
    expect(waits).toEqual([1_000, 2_000]);
  });

  it('does not repeat an answer that will not change', async () => {
    const { clock, waits } = recordingClock();
    const refused = failingWith(new ApiError(422, 'validation_error', 'bad target_format'));
    await expect(retrying(refused.call, { sleep: clock.sleep })).rejects.toMatchObject({ status: 422 });
    expect(refused.attempts()).toBe(1);
    expect(waits).toEqual([]);
  });

  it('stops waiting when the signal aborts, and calls no more', async () => {
    const limited = failingWith(new RateLimitedError('slow down', 60));
    const controller = new AbortController();
    // A real 60 s wait that only the abort can end within the test's time limit.
    const retried = retrying(limited.call, { sleep: systemClock.sleep, signal: controller.signal });
    controller.abort(new Error('stopped by the test'));
    await expect(retried).rejects.toThrow('stopped by the test');
    expect(limited.attempts()).toBe(1);
  });
});
