import type { Clock } from './clock.js';
import { JobFailedError, TimeoutError } from './errors.js';
import type { JobStatus, JobStatusDone } from './x402-api.js';
import { retrying } from './retry.js';

export type JobStatusWithWait = JobStatus & { retryAfterSeconds: number };

export interface WaitForJobOptions {
  onProgress?: (status: JobStatus) => void;
  signal?: AbortSignal;
  /** Longest wait; default the client's conversionTimeoutMs. */
  timeoutMs?: number;
}

/**
 * How long each status read asks the server to wait for the job's end (it allows up to 30 s): the answer comes
 * the moment the job ends, and at least this often otherwise, so progress is still reported.
 */
export const STATUS_WAIT_SECONDS = 10;

/**
 * waitForJob: long-polls the status (`?wait=`, up to STATUS_WAIT_SECONDS and never past the deadline), so a job
 * that ends is seen at once. A server that answers a still-running job sooner than asked (one that does not wait)
 * is polled as it says instead: waiting Retry-After, else retry_after_seconds. When that wait would pass the
 * deadline it waits only until the deadline and looks once more, so a job that finished meanwhile is not reported
 * as timed out; if it is still running then, TimeoutError. A failed job is a JobFailedError; an abort rejects with
 * the signal's reason and sends no further request.
 */
export function jobPolling(getJob: (jobId: string, signal?: AbortSignal, waitSeconds?: number) => Promise<JobStatusWithWait>, clock: Clock, defaultTimeoutMs: number) {
  return async function waitForJob(jobId: string, { onProgress, signal, timeoutMs = defaultTimeoutMs }: WaitForJobOptions = {}): Promise<JobStatusDone> {
    const deadline = clock.now() + timeoutMs;
    for (;;) {
      const waitSeconds = Math.max(0, Math.min(STATUS_WAIT_SECONDS, Math.floor((deadline - clock.now()) / 1000)));
      const asked = clock.now();
      const status = await retrying(() => getJob(jobId, signal, waitSeconds), { sleep: clock.sleep, signal });
      onProgress?.(status);
      if (status.status === 'done') return status;
      if (status.status === 'failed') {
        throw new JobFailedError(jobId, status.failure_type, status.message ?? `The conversion failed (${status.failure_type}).`, status.charged_amount);
      }
      const left = deadline - clock.now();
      if (left <= 0) throw Object.assign(new TimeoutError(`Job ${jobId} did not finish within ${timeoutMs} ms.`), { jobId });
      const waited = clock.now() - asked >= waitSeconds * 900;
      if (waitSeconds === 0 || !waited) await clock.sleep(Math.min(status.retryAfterSeconds * 1000, left), signal);
    }
  };
}
