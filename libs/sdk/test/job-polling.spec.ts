import { afterEach, describe, expect, it } from 'vitest';
import { createClient, type JobStatus, TimeoutError } from '../src/index.js';
import { CLOCK_START, recordingClock } from './support/recording-clock.js';
import { inTurn, startStubService, type StubAnswer } from './support/stub-service.js';

/** The client's polling against a stub of the status endpoint (pure client logic), with a recording clock. */
const JOB_ID = `job_${'p'.repeat(24)}`;
const STATUS_PATH = `/api/x402/v1/convert-file/${JOB_ID}/status`;
const processing = (retryAfterSeconds: number, headers?: Record<string, string>): StubAnswer => ({
  status: 200,
  headers,
  body: { job_id: JOB_ID, status: 'processing', result_available: false, retry_after_seconds: retryAfterSeconds } satisfies JobStatus,
});
const done: StubAnswer = {
  status: 200,
  body: {
    job_id: JOB_ID,
    status: 'done',
    input_file_size_bytes: 100,
    result_available: true,
    result_requires_payment: true,
    price_for_result: { amount: '0.020000', currency: 'USDC', atomic_units: '20000', decimals: 6, pricing_rule: 'file_size_lte_10mb' },
    result_url: `http://stub/api/x402/v1/convert-file/${JOB_ID}/result`,
  } satisfies JobStatus,
};

describe('waitForJob long-polls, polls as a server that does not wait asks, and keeps its deadline', () => {
  let stub: Awaited<ReturnType<typeof startStubService>> | undefined;
  afterEach(async () => stub?.close());

  const pollingWith = async (...answers: StubAnswer[]) => {
    const next = inTurn(...answers);
    stub = await startStubService(next);
    const recording = recordingClock();
    return { client: createClient({ baseUrl: stub.baseUrl, clock: recording.clock }), ...recording, statusReads: () => stub!.requests.filter((request) => request.path === STATUS_PATH).length };
  };

  it('long-polls: each read asks the server to wait up to 10 s (never past the deadline), and reads again at once after a wait', async () => {
    const recording = recordingClock();
    const answers = inTurn(processing(2), processing(2), done);
    // A server that waits: each still-running answer comes after the wait asked for.
    stub = await startStubService((request) => {
      const answer = answers();
      if (answer.body && (answer.body as JobStatus).status === 'processing') recording.pass(Number(new URLSearchParams(request.query).get('wait')) * 1000);
      return answer;
    });
    const client = createClient({ baseUrl: stub.baseUrl, clock: recording.clock });
    expect(await client.waitForJob(JOB_ID, { timeoutMs: 25_000 })).toMatchObject({ status: 'done' });
    expect(stub.requests.map((request) => request.query)).toEqual(['wait=10', 'wait=10', 'wait=5']);
    expect(recording.waits).toEqual([]);
  });

  it('waits retry_after_seconds between polls when there is no Retry-After header', async () => {
    const { client, waits, statusReads } = await pollingWith(processing(3), processing(2), done);
    expect(await client.waitForJob(JOB_ID)).toMatchObject({ status: 'done' });
    expect(waits).toEqual([3_000, 2_000]);
    expect(statusReads()).toBe(3);
  });

  it('Retry-After wins over retry_after_seconds, in seconds or as an HTTP date', async () => {
    const { client, waits, now } = await pollingWith(
      processing(1, { 'Retry-After': '7' }),
      // An HTTP date 12 s after the moment this answer is given (7 s after the start).
      processing(1, { 'Retry-After': new Date(CLOCK_START + 7_000 + 12_000).toUTCString() }),
      done,
    );
    await client.waitForJob(JOB_ID);
    expect(waits).toEqual([7_000, 12_000]);
    expect(now()).toBe(CLOCK_START + 19_000);
  });

  it('a 429 on a status read is waited out as its Retry-After date says, then read again', async () => {
    const limited: StubAnswer = { status: 429, headers: { 'Retry-After': new Date(CLOCK_START + 5_000).toUTCString() }, body: { error: { code: 'rate_limited', message: 'Too many requests.' } } };
    const { client, waits, statusReads } = await pollingWith(limited, done);
    expect(await client.waitForJob(JOB_ID)).toMatchObject({ status: 'done' });
    expect(waits).toEqual([5_000]);
    expect(statusReads()).toBe(2);
  });

  it('when the next wait would pass the deadline it waits until the deadline and looks once more: a job done by then is done', async () => {
    const { client, waits, statusReads } = await pollingWith(processing(1), processing(1), processing(1), done);
    expect(await client.waitForJob(JOB_ID, { timeoutMs: 2_500 })).toMatchObject({ status: 'done' });
    expect(waits).toEqual([1_000, 1_000, 500]);
    expect(statusReads()).toBe(4);
  });

  it('a job still running at the deadline is a TimeoutError naming the job, and nothing more is asked', async () => {
    const { client, waits, statusReads } = await pollingWith(processing(1));
    const error = await client.waitForJob(JOB_ID, { timeoutMs: 2_500 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ jobId: JOB_ID, message: `Job ${JOB_ID} did not finish within 2500 ms.` });
    expect(waits).toEqual([1_000, 1_000, 500]);
    expect(statusReads()).toBe(4);
  });
});
