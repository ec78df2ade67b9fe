import type { JobState } from 'bullmq';

/** Where BullMQ has a job: 'unknown' when it has none (never added, removed, or Redis lost it). */
export type QueueState = JobState | 'unknown';

/** BullMQ will still hand the job to a worker (or a worker holds it: if that worker died, BullMQ's stall check hands it on). */
const PENDING: ReadonlySet<QueueState> = new Set<QueueState>(['waiting', 'delayed', 'prioritized', 'active', 'waiting-children']);

/** A job waiting in `queued`: enqueue it when BullMQ does not have it, replace BullMQ's finished entry, else leave it. */
export function repairQueued(state: QueueState): 'leave' | 'enqueue' | 'replace' {
  if (state === 'unknown') return 'enqueue';
  return PENDING.has(state) ? 'leave' : 'replace';
}

/**
 * A job in `processing` that no run holds (its lease ran out or was released): BullMQ may still have it
 * pending (a retry after backoff, a stalled job being handed on). Otherwise its run vanished: run it again,
 * unless it already had every run it may have.
 */
export function repairOrphanedRun(state: QueueState, attempts: number, maxRuns: number): 'leave' | 'requeue' | 'fail' {
  if (PENDING.has(state)) return 'leave';
  return attempts >= maxRuns ? 'fail' : 'requeue';
}
