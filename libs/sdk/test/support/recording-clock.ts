import type { Clock } from '../../src/index.js';

/** Where a recording clock starts: a whole second, as HTTP dates count whole seconds. */
export const CLOCK_START = Date.UTC(2030, 0, 1, 12, 0, 0);

/**
 * A clock for tests: `sleep` records the wait asked for and moves time on by it at once, so a test
 * asserts which waits the client asked for instead of waiting them.
 */
export function recordingClock() {
  let now = CLOCK_START;
  const waits: number[] = [];
  const clock: Clock = {
    now: () => now,
    sleep: async (ms, signal) => {
      signal?.throwIfAborted();
      waits.push(ms);
      now += ms;
    },
  };
  /** Time passing outside the client (a server that waits before it answers). */
  const pass = (ms: number) => {
    now += ms;
  };
  return { clock, waits, now: () => now, pass };
}
