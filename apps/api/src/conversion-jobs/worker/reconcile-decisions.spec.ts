import { describe, expect, it } from 'vitest';
import { repairOrphanedRun, repairQueued } from './reconcile-decisions.js';

describe('reconcile decisions', () => {
  it('enqueues a queued job BullMQ lost, replaces a finished entry, leaves a pending one', () => {
    expect(repairQueued('unknown')).toBe('enqueue');
    expect(repairQueued('completed')).toBe('replace');
    expect(repairQueued('failed')).toBe('replace');
    for (const state of ['waiting', 'delayed', 'prioritized', 'active'] as const) expect(repairQueued(state)).toBe('leave');
  });

  it('runs an orphaned job again until it had its runs, then fails it; leaves one BullMQ will still hand out', () => {
    expect(repairOrphanedRun('unknown', 1, 3)).toBe('requeue');
    expect(repairOrphanedRun('failed', 2, 3)).toBe('requeue');
    expect(repairOrphanedRun('completed', 3, 3)).toBe('fail');
    expect(repairOrphanedRun('delayed', 3, 3)).toBe('leave');
    expect(repairOrphanedRun('active', 1, 3)).toBe('leave');
  });
});
