import { randomBytes } from 'node:crypto';

/** `job_` + 32 url-safe characters (192 random bits): the job id is the bearer secret of status and delete. */
export function newJobId(): string {
  return `job_${randomBytes(24).toString('base64url')}`;
}

export const JOB_ID_PATTERN = /^job_[A-Za-z0-9_-]{22,80}$/;
