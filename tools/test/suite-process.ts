import { spawn } from 'node:child_process';
import { createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import type { CpuMeter } from './suite-cpu.js';

export interface SuiteProcessResult {
  exitCode: number;
  seconds: number;
  /** CPU seconds of all its processes, where the machine lets the runner measure them. */
  cpuSeconds?: number;
  /** It ran past its hard limit and was killed. */
  timedOut: boolean;
}

export interface SuiteStep {
  cwd: string;
  args: readonly string[];
}

/**
 * Runs a suite's steps one after another (the first failure ends it), each `command` in a process group of its own,
 * their output into `logPath`. Past `hardLimitSeconds` in all, the running group is killed: a hung suite fails by
 * name instead of holding CI to its own limit.
 */
export async function runSuiteProcess(command: string, steps: readonly SuiteStep[], options: { env: NodeJS.ProcessEnv; logPath: string; hardLimitSeconds: number; cpu?: CpuMeter }): Promise<SuiteProcessResult> {
  const log = createWriteStream(options.logPath);
  const started = performance.now();
  const deadline = Date.now() + options.hardLimitSeconds * 1000;
  let exitCode = 0;
  let timedOut = false;
  for (const step of steps) {
    const wrapped = options.cpu ? options.cpu.wrap(command, step.args) : { command, args: [...step.args] };
    const result = await runStep(wrapped.command, { cwd: step.cwd, args: wrapped.args }, { env: options.env, log, hardLimitSeconds: options.hardLimitSeconds, deadline });
    timedOut ||= result.timedOut;
    exitCode = result.exitCode;
    if (exitCode !== 0 || timedOut) break;
  }
  await new Promise<void>((resolve) => log.end(resolve));
  return { exitCode, seconds: (performance.now() - started) / 1000, cpuSeconds: options.cpu?.seconds(), timedOut };
}

async function runStep(command: string, step: SuiteStep, options: { env: NodeJS.ProcessEnv; log: WriteStream; hardLimitSeconds: number; deadline: number }): Promise<{ exitCode: number; timedOut: boolean }> {
  const { log } = options;
  const child = spawn(command, step.args, { cwd: step.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  child.stdout.pipe(log, { end: false });
  child.stderr.pipe(log, { end: false });
  let timedOut = false;
  const killGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // already gone
    }
  };
  const timer = setTimeout(() => {
    timedOut = true;
    log.write(`\n*** killed: still running after ${options.hardLimitSeconds} s, its hard limit ***\n`);
    killGroup('SIGTERM');
    setTimeout(() => killGroup('SIGKILL'), 15_000).unref();
  }, Math.max(0, options.deadline - Date.now()));
  const [code, signal] = (await once(child, 'close')) as [number | null, NodeJS.Signals | null];
  clearTimeout(timer);
  // What the step left behind in its group (a service it started and lost) does not outlive it.
  killGroup('SIGKILL');
  if (signal) log.write(`\n*** ended by ${signal} ***\n`);
  return { exitCode: code ?? 1, timedOut };
}
