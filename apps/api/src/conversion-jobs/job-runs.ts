/** How many runs may claim one job (retries of engine failures and re-dispatches after lost workers together). */
export const MAX_RUNS = 3;

/** The BullMQ options of a conversion job: its id is the job id (adding it again is a no-op), and failed runs are retried with backoff. */
export const CONVERT_JOB_OPTIONS = { attempts: MAX_RUNS, backoff: { type: 'exponential', delay: 2000 } } as const;
