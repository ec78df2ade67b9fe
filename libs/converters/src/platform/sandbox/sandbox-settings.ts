/**
 * ENGINE_SANDBOX: `auto` sandboxes where the kernel allows (and says once at start-up what does not hold),
 * `required` refuses to start a worker that cannot sandbox with every layer, `off` never (a warning at every start).
 */
export const SANDBOX_SETTINGS = ['auto', 'required', 'off'] as const;
export type SandboxSetting = (typeof SANDBOX_SETTINGS)[number];
