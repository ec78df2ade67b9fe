import { ConversionError } from './conversion-error.js';

/**
 * One step's time limit shared by the several engine runs it makes (pdfinfo, then a run per page range):
 * each run gets what is left, so the step as a whole never outlasts `limits.timeoutMs`.
 */
export class StepDeadline {
  private readonly endsAt: number;

  constructor(
    private readonly timeoutMs: number,
    private readonly now: () => number = Date.now,
  ) {
    this.endsAt = now() + timeoutMs;
  }

  /** Milliseconds left for the next run, at most `cap`; a timeout failure when none are left. */
  remainingMs(cap = Number.POSITIVE_INFINITY): number {
    const left = this.endsAt - this.now();
    if (left <= 0) throw new ConversionError('timeout', `The conversion took longer than ${Math.round(this.timeoutMs / 1000)} s.`, true);
    return Math.min(left, cap);
  }
}
