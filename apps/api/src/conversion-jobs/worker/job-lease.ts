import { randomBytes } from 'node:crypto';
import type { ConversionJob } from '../conversion-job.entity.js';
import type { JobLeases, RunOutcome } from './job-leases.repository.js';

/** How often a run renews its lease (and writes its progress): also how soon it notices a DELETE. */
export const HEARTBEAT_MS = 2000;
/** A run stops itself this long before its lease could run out when it cannot renew it. */
const SAFETY_MARGIN_MS = 5000;

export type LeaseLoss = 'removed' | 'taken' | 'unrenewable';

export type Acquired =
  /** `runs`: how many runs claimed the job, this one included. */
  | { kind: 'held'; lease: JobLease; job: ConversionJob; runs: number }
  /** Another run's lease is live: try again when it could have run out. */
  | { kind: 'busy'; retryInMs: number }
  | { kind: 'gone' | 'finished' | 'unpaid' };

/**
 * One run's hold on a job. Acquiring it moves the job to processing under a random owner token and a
 * lease record in the database; a heartbeat renews the lease and writes the latest progress (awaited, one
 * write per beat). When the job was removed (DELETE, expiry), the lease was taken, or it could not be
 * renewed in time, `signal` aborts: the engine is killed and the run gives up. Only the holder can
 * finish the job, so a late run can never overwrite another's result.
 */
export class JobLease {
  private readonly controller = new AbortController();
  private stopped = false;
  /** Ends the heartbeat's wait for its next beat at once (a stop). */
  private wakeHeartbeat?: () => void;
  private lastRenewedAt = Date.now();
  private progress?: number;
  private written?: number;
  private beating?: Promise<void>;
  lost?: LeaseLoss;

  private constructor(
    private readonly leases: JobLeases,
    readonly jobId: string,
    private readonly owner: string,
    private readonly leaseSeconds: number,
  ) {}

  static async acquire(leases: JobLeases, jobId: string, leaseSeconds: number): Promise<Acquired> {
    const owner = randomBytes(12).toString('base64url');
    const acquiredAt = Date.now();
    const claimed = await leases.claim(jobId, owner, leaseSeconds);
    if (claimed) {
      const lease = new JobLease(leases, jobId, owner, leaseSeconds);
      lease.lastRenewedAt = acquiredAt;
      lease.beating = lease.heartbeat();
      return { kind: 'held', lease, ...claimed };
    }
    const current = await leases.holderOf(jobId);
    if (!current) return { kind: 'gone' };
    if (current.status === 'done' || current.status === 'failed') return { kind: 'finished' };
    if (current.status === 'awaiting_payment') return { kind: 'unpaid' };
    const expiresIn = (current.leaseExpiresAt?.getTime() ?? Date.now()) - Date.now();
    return { kind: 'busy', retryInMs: Math.max(1000, Math.min(expiresIn + 1000, leaseSeconds * 1000)) };
  }

  /** Aborts when this run lost the job. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Kept in memory; the next heartbeat writes it (so progress is throttled to one write per beat). */
  reportProgress(percent: number): void {
    // Never back: a step's phases (OCR after text) may each count from their own start.
    this.progress = Math.max(this.progress ?? 5, Math.min(99, Math.round(percent)));
  }

  /** Ends the job as this run's outcome; false when the run no longer held it (nothing was written). */
  async finish(outcome: RunOutcome): Promise<boolean> {
    await this.stop();
    if (this.lost) return false;
    return this.leases.finish(this.jobId, this.owner, outcome);
  }

  /** Gives the job up for a retry later (`unrun`: before its conversion started, so not counted as a run). */
  async release(options: { unrun?: boolean } = {}): Promise<void> {
    await this.stop();
    if (!this.lost) await this.leases.release(this.jobId, this.owner, options);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wakeHeartbeat?.();
    await this.beating;
  }

  /** Sleeps a beat (a plain timer: most runs end within their first beat, and an aborted sleep costs an exception). */
  private nextBeat(): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, HEARTBEAT_MS);
      this.wakeHeartbeat = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  private async heartbeat(): Promise<void> {
    while (!this.stopped) {
      await this.nextBeat();
      if (this.stopped) return;
      const startedAt = Date.now();
      const progress = this.progress !== this.written ? this.progress : undefined;
      try {
        if (!(await this.leases.renew(this.jobId, this.owner, this.leaseSeconds, progress))) {
          return this.lose((await this.leases.holderOf(this.jobId).catch(() => undefined)) === null ? 'removed' : 'taken');
        }
        this.lastRenewedAt = startedAt;
        this.written = progress ?? this.written;
      } catch {
        // The database may be back before the lease runs out; past that another run may hold the job.
        if (Date.now() - this.lastRenewedAt > this.leaseSeconds * 1000 - SAFETY_MARGIN_MS) return this.lose('unrenewable');
      }
    }
  }

  private lose(reason: LeaseLoss): void {
    this.lost = reason;
    this.controller.abort(new Error(`job ${this.jobId}: lease ${reason}`));
  }
}
