/**
 * ENGINE_SANDBOX: `required` (the default) refuses to start a worker that cannot sandbox its engines with every layer;
 * `off` runs them unsandboxed, an operator's explicit choice for a machine without user namespaces, said at every
 * start, in readiness and in the metrics. There is no setting that falls back by itself: a sandbox that switches
 * itself off protects nobody.
 */
export const SANDBOX_SETTINGS = ['required', 'off'] as const;
export type SandboxSetting = (typeof SANDBOX_SETTINGS)[number];
