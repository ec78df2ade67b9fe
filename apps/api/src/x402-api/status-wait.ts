import { JobError, JobErrorCode } from './job.error.js';

/** The longest a status request waits for its job's end. */
export const MAX_STATUS_WAIT_SECONDS = 30;

export interface StatusWait {
  seconds: number;
  /** Asked with `Prefer: wait=N`: the answer says `Preference-Applied: wait=<seconds>`. */
  preferred: boolean;
}

/**
 * Pure: how long a status request asks to wait for its job's end. `?wait=N` is a parameter, checked strictly (an
 * integer 0..30, else 400); `Prefer: wait=N` (RFC 7240) is a preference, so more than 30 is taken as 30 and a
 * malformed one is ignored. The parameter wins over the header.
 */
export function statusWait(query: string | undefined, prefer: string | undefined): StatusWait {
  if (query !== undefined) {
    const seconds = /^\d{1,3}$/.test(query) ? Number(query) : NaN;
    if (!(seconds <= MAX_STATUS_WAIT_SECONDS)) throw new JobError(JobErrorCode.InvalidWait, `wait must be a whole number of seconds from 0 to ${MAX_STATUS_WAIT_SECONDS}.`);
    return { seconds, preferred: false };
  }
  const asked = /(?:^|,)\s*wait\s*=\s*"?(\d+)"?\s*(?:[,;]|$)/i.exec(prefer ?? '')?.[1];
  if (asked === undefined) return { seconds: 0, preferred: false };
  return { seconds: Math.min(Number(asked), MAX_STATUS_WAIT_SECONDS), preferred: true };
}
