import type { Clock, JobStatusWithWait } from '@fileshift/sdk';

/** The longest wait get_conversion_status takes: an MCP client's request timeout is often a minute. */
export const MAX_STATUS_WAIT_SECONDS = 60;
/** The longest the service holds one status request (its `wait` parameter). */
const SERVICE_MAX_WAIT_SECONDS = 30;

export type ReadStatus = (jobId: string, signal: AbortSignal | undefined, waitSeconds: number) => Promise<JobStatusWithWait>;

/**
 * The job's status once it ended (done or failed), or the last one seen when `waitSeconds` ran out. Long-polls the
 * free status endpoint (the service answers the moment the job ends); a service that answers a running job sooner
 * than asked is asked again after its Retry-After, never past the wait. An abort rejects with the signal's reason.
 */
export async function statusWithin(readStatus: ReadStatus, jobId: string, waitSeconds: number, { clock, signal }: { clock: Clock; signal?: AbortSignal }): Promise<JobStatusWithWait> {
  const deadline = clock.now() + waitSeconds * 1000;
  for (;;) {
    const left = deadline - clock.now();
    const asked = Math.max(0, Math.min(SERVICE_MAX_WAIT_SECONDS, Math.floor(left / 1000)));
    const started = clock.now();
    const status = await readStatus(jobId, signal, asked);
    if (status.status === 'done' || status.status === 'failed') return status;
    const leftNow = deadline - clock.now();
    if (leftNow <= 0 || asked === 0) return status;
    // Answered sooner than asked: the service does not hold requests, so wait as it says before asking again.
    if (clock.now() - started < asked * 900) await clock.sleep(Math.min(status.retryAfterSeconds * 1000, leftNow), signal);
  }
}
