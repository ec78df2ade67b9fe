// What a worker imports: its engines' runtimes (made and probed), the engine sandbox and its runner, the plan runner.
export { createEngineRuntimes, type EngineRuntimeOptions, probeEngines, type ProbedEngines } from './engines/worker-engines.js';
export { EngineRoster } from './engines/engine-roster.js';
export { type EngineAvailability, type EngineRuntime, type JoinRequest, type StepContext, type StepOutcome, type StepRequest } from './platform/engine-runtime.js';
export { type JoinMemberFile, type JoinResult, type JoinRun, runJoin } from './platform/join-runner.js';
export { videoOutputArgs } from './engines/ffmpeg/ffmpeg-video.runtime.js';
export { inputArgs as ffmpegInputArgs } from './engines/ffmpeg/ffmpeg-formats.js';
export { type InstanceReplacement } from './engines/libreoffice/libreoffice.runtime.js';
export { type PlanResult, type PlanRun, runPlan, type StepTiming } from './platform/plan-runner.js';
export { SandboxedProcessRunner, type SandboxedResult, type SandboxedRun } from './platform/sandboxed-process.runner.js';
export { EngineSandbox, SANDBOX_SETTINGS, type SandboxSetting, SandboxSetupError, type SandboxStatus, SandboxUnavailableError } from './platform/sandbox/engine-sandbox.js';
export { ownedDirectory, sweepOrphanDirectories } from './platform/sandbox/owned-directories.js';
