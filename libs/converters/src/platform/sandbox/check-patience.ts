/**
 * How long a start-up check (the sandbox's trial run, an engine's version switch) may take before it counts as hung.
 * They answer within a second or two; a machine stalled for a while must not read as one without the sandbox (a worker
 * that requires it would not start) or without the engine (missing until probed again; seen: CI, three engines' checks
 * past 15 s at once).
 */
export const CHECK_PATIENCE_MS = 60_000;
