import type { Clock, JobStatusWithWait } from '@fileshift/sdk';
import { describe, expect, it } from 'vitest';
import { type ReadStatus, statusWithin } from '../src/tools/status-wait.js';

/** A clock that moves only when the code under test waits or the fake service holds a request. */
function fakeClock() {
  let now = 0;
  const sleeps: number[] = [];
  const clock: Clock = {
    now: () => now,
    sleep: async (ms, signal) => {
      if (signal?.aborted) throw signal.reason;
      sleeps.push(ms);
      now += ms;
    },
  };
  return { clock, sleeps, advance: (ms: number) => void (now += ms) };
}

const running = { job_id: 'j', status: 'processing', progress_percent: 40, retry_after_seconds: 2, retryAfterSeconds: 2 } as unknown as JobStatusWithWait;
const done = { job_id: 'j', status: 'done', retryAfterSeconds: 0 } as unknown as JobStatusWithWait;

describe('statusWithin (get_conversion_status wait_seconds)', () => {
  it('long-polls the service, at most 30 s a request, and answers as soon as the job ends', async () => {
    const { clock, advance } = fakeClock();
    const asked: number[] = [];
    const answers = [running, done];
    const read: ReadStatus = async (_id, _signal, wait) => {
      asked.push(wait);
      advance(wait * 1000); // a service that holds the request as long as asked
      return answers.shift()!;
    };
    expect((await statusWithin(read, 'j', 45, { clock })).status).toBe('done');
    expect(asked).toEqual([30, 15]);
  });

  it('returns the last status when the wait runs out, and asks once without waiting for 0', async () => {
    const { clock, advance } = fakeClock();
    const asked: number[] = [];
    const read: ReadStatus = async (_id, _signal, wait) => {
      asked.push(wait);
      advance(wait * 1000);
      return running;
    };
    expect((await statusWithin(read, 'j', 10, { clock })).status).toBe('processing');
    expect(asked).toEqual([10]);
    asked.length = 0;
    expect((await statusWithin(read, 'j', 0, { clock })).status).toBe('processing');
    expect(asked).toEqual([0]);
  });

  it('waits Retry-After between reads of a service that answers at once, never past the wait', async () => {
    const { clock, sleeps } = fakeClock();
    let reads = 0;
    const read: ReadStatus = async () => (++reads < 5 ? running : done);
    // The last read is at the deadline itself: a job that ended meanwhile would be seen.
    expect((await statusWithin(read, 'j', 5, { clock })).status).toBe('processing');
    expect(sleeps).toEqual([2000, 2000, 1000]);
    expect(reads).toBe(4);
  });

  it('stops at an abort: the read is not repeated', async () => {
    const { clock } = fakeClock();
    const controller = new AbortController();
    let reads = 0;
    const read: ReadStatus = async () => {
      reads++;
      controller.abort(new Error('cancelled by the client'));
      return running;
    };
    await expect(statusWithin(read, 'j', 30, { clock, signal: controller.signal })).rejects.toThrow('cancelled by the client');
    expect(reads).toBe(1);
  });
});
