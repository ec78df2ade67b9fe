import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, createClient, JobFailedError, TimeoutError } from '../src/index.js';
import { recordingClock } from './support/recording-clock.js';
import { startStubService, type StubAnswer, type StubRequest } from './support/stub-service.js';

/** convertFile against a stub of the service (client logic only: what its errors carry). */
const JOB_ID = `job_${'e'.repeat(24)}`;
const png = { data: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), filename: 'dot.png' };
const accepted: StubAnswer = { status: 202, body: { job_id: JOB_ID, status: 'processing', status_url: `http://stub/api/x402/v1/convert-file/${JOB_ID}/status`, retry_after_seconds: 1 } };
const processing: StubAnswer = { status: 200, body: { job_id: JOB_ID, status: 'processing', result_available: false, retry_after_seconds: 1 } };
const failed: StubAnswer = {
  status: 200,
  body: {
    job_id: JOB_ID,
    status: 'failed',
    failure_type: 'unsupported_or_corrupt_input',
    result_available: false,
    charged_amount: { amount: '0.000000', currency: 'USDC', atomic_units: '0', decimals: 6 },
    message: 'The input could not be read as png.',
  },
};

describe('every error convertFile throws after sending the job start carries the key, and the job once it exists', () => {
  let stub: Awaited<ReturnType<typeof startStubService>> | undefined;
  afterEach(async () => stub?.close());

  const serving = async (answers: { start: StubAnswer; status?: StubAnswer }) => {
    stub = await startStubService((request) => (request.method === 'POST' ? answers.start : (answers.status ?? processing)));
    return createClient({ baseUrl: stub.baseUrl, clock: recordingClock().clock, conversionTimeoutMs: 3_000 });
  };
  const sentKeys = () => stub!.requests.filter((request: StubRequest) => request.method === 'POST').map((request) => request.headers['idempotency-key']);

  it('a TimeoutError carries the job id and the generated key, the one sent', async () => {
    const client = await serving({ start: accepted });
    const error = await client.convertFile({ input: png, targetFormat: 'webp' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ jobId: JOB_ID, idempotencyKey: expect.stringMatching(/^fsdk-[0-9a-f-]{36}$/) });
    expect(sentKeys()).toEqual([(error as TimeoutError).idempotencyKey]);
    expect(stub!.requests.some((request) => request.path.endsWith('/result'))).toBe(false);
  });

  it('a JobFailedError carries the schema failure type, the charged amount, the message, the job and the caller key', async () => {
    const client = await serving({ start: accepted, status: failed });
    const error = await client.convertFile({ input: png, targetFormat: 'webp', idempotencyKey: 'caller-key-0001' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JobFailedError);
    expect(error).toMatchObject({
      jobId: JOB_ID,
      idempotencyKey: 'caller-key-0001',
      failureType: 'unsupported_or_corrupt_input',
      chargedAmount: { amount: '0.000000', atomic_units: '0' },
      message: 'The input could not be read as png.',
    });
    expect(sentKeys()).toEqual(['caller-key-0001']);
  });

  it('a start that fails before the job exists carries the key (to retry with), and no job id', async () => {
    const client = await serving({ start: { status: 500, body: { error: { code: 'internal_error', message: 'Internal error.' } } } });
    const error = await client.convertFile({ input: png, targetFormat: 'webp', idempotencyKey: 'caller-key-0002' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 500, idempotencyKey: 'caller-key-0002' });
    expect((error as ApiError).jobId).toBeUndefined();
  });
});
