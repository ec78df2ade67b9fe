/**
 * How long a start-up check (the sandbox's trial run, an engine's version switch) may take before it counts as hung.
 * They answer within a second or two; a machine stalled for a while must not read as one without the sandbox or the
 * engine, which a worker would then run without for its whole life (seen: CI, three engines' checks past 15 s at once).
 */
export const CHECK_PATIENCE_MS = 60_000;
