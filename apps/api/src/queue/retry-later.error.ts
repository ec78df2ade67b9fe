/**
 * Thrown by a job handler that cannot run the job yet (another run still holds it): the processor puts
 * the job back to wait `delayMs` without counting an attempt.
 */
export class RetryLaterError extends Error {
  constructor(
    readonly delayMs: number,
    reason: string,
  ) {
    super(reason);
    this.name = 'RetryLaterError';
  }
}
