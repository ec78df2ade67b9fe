import { mkdtemp, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { ConversionError } from './conversion-error.js';
import type { EngineDescriptor } from './engine-descriptor.js';
import { defaultEngineSandbox, type EngineSandbox } from './sandbox/engine-sandbox.js';
import { assertAbsolute, machineTempDir } from './sandbox/absolute-path.js';
import { ConversionWatch } from './sandbox/conversion-watch.js';
import { engineEnvironment } from './sandbox/engine-environment.js';
import { limitFailure } from './sandbox/limit-failure.js';
import { processLimitsOf, type ProcessLimits } from './sandbox/process-limits.js';
import { ProcessTreeUsage } from './sandbox/process-tree-usage.js';
import { DEFAULT_SOCKET_POLICY, type SocketPolicy } from './sandbox/seccomp/seccomp-rules.js';
import { sandboxFailed, spawnWrapped } from './sandbox/spawn-wrapped.js';
import { killTagged } from './sandbox/tagged-processes.js';
import type { WrappedCommand } from './sandbox/wrapped-command.js';

export interface SandboxedRun {
  command: string;
  /** Arguments as an array: never a shell, so no input can become a command. */
  args: readonly string[];
  /**
   * The job's scratch directory: the one place the engine may write, and where its input and output are (bound
   * into its sandbox). The run's own temporary directory is made inside it and removed afterwards. Without one,
   * the run gets a directory of its own under the OS temp directory.
   */
  scratchDir?: string;
  /** Files or directories the engine reads beyond its scratch directory (its policy file): bound read-only. */
  readOnlyPaths?: readonly string[];
  timeoutMs: number;
  /** Kills the process tree when this file grows past maxOutputBytes. */
  outputPath?: string;
  maxOutputBytes?: number;
  signal?: AbortSignal;
  onStdout?: (chunk: string) => void;
  /** Variables added to the minimal environment (e.g. where an engine finds its security policy). */
  env?: Readonly<Record<string, string>>;
  /** Test hook: the pid of the spawned process (also its process group id; bubblewrap when sandboxed). */
  onSpawn?: (pid: number) => void;
}

export interface SandboxedResult {
  exitCode: number;
  stdout: string;
  stderrTail: string;
}

/** What the sandbox of one engine's processes is made of: its descriptor's limits and socket policy. */
export interface EngineProfile {
  limits: ProcessLimits;
  sockets: SocketPolicy;
}

/** The profile of an engine, from its descriptor (the one source of its limits). */
export const engineProfile = (descriptor: Pick<EngineDescriptor, 'limits' | 'sockets'>): EngineProfile => ({
  limits: processLimitsOf(descriptor.limits),
  sockets: descriptor.sockets ?? DEFAULT_SOCKET_POLICY,
});

/** Runs that name no engine (installation checks): generous limits, no sockets but UNIX ones. */
const GENERIC_PROFILE = engineProfile({ limits: { timeoutMs: 60_000, maxOutputBytes: 256 * 1024 * 1024 } });

const STDERR_TAIL_BYTES = 4096;
const STDOUT_KEPT_BYTES = 64 * 1024;

/**
 * Runs an external engine, every one, the same way: inside the engine sandbox (bubblewrap: its own namespaces,
 * the scratch directory as the only writable place, seccomp, the engine's limits; see sandbox/), with its own
 * temporary directory as cwd and HOME, a minimal environment without proxies, lowered priority, a process group
 * of its own (a timeout, an abort, an oversized output or its tree's memory past the engine's limit kill the whole
 * tree: the same watch as a warm engine's), and the last 4 KB of stderr kept
 * for the failure message. A limit or a sandbox refusal ends the run with the failure type it stands for.
 */
export class SandboxedProcessRunner {
  private readonly sandbox: Promise<EngineSandbox>;

  constructor(
    private readonly profile: EngineProfile = GENERIC_PROFILE,
    sandbox: EngineSandbox | Promise<EngineSandbox> = defaultEngineSandbox(),
  ) {
    this.sandbox = Promise.resolve(sandbox);
  }

  /** The same sandbox for another engine's processes. */
  forEngine(descriptor: Pick<EngineDescriptor, 'limits' | 'sockets'>): SandboxedProcessRunner {
    return new SandboxedProcessRunner(engineProfile(descriptor), this.sandbox);
  }

  async run(run: SandboxedRun): Promise<SandboxedResult> {
    run.signal?.throwIfAborted();
    const sandbox = await this.sandbox;
    if (run.scratchDir !== undefined) assertAbsolute(run.scratchDir, 'an engine run\'s scratch directory');
    const ownDir = run.scratchDir === undefined ? await mkdtemp(join(machineTempDir(), 'fileshift-run-')) : undefined;
    const scratchDir = run.scratchDir ?? ownDir!;
    const workDir = ownDir ?? (await mkdtemp(join(scratchDir, 'fileshift-run-')));
    try {
      const prepared = await sandbox.prepare({
        command: run.command,
        args: run.args,
        writableDirs: [scratchDir],
        readOnlyPaths: run.readOnlyPaths,
        cwd: workDir,
        limits: this.profile.limits,
        sockets: this.profile.sockets,
      });
      try {
        return await this.spawn(prepared.wrapped, workDir, run);
      } finally {
        prepared.release();
      }
    } finally {
      await rm(workDir, { recursive: true, force: true });
    }
  }

  private async spawn(wrapped: WrappedCommand, workDir: string, run: SandboxedRun): Promise<SandboxedResult> {
    const { child, report } = spawnWrapped(wrapped, {
      cwd: workDir,
      env: { ...run.env, ...engineEnvironment(workDir) },
    });
    if (child.pid) run.onSpawn?.(child.pid);
    let stderrTail = '';
    let stdout = '';
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      stderrTail = (stderrTail + chunk).slice(-STDERR_TAIL_BYTES);
    });
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      stdout = (stdout + chunk).slice(-STDOUT_KEPT_BYTES);
      run.onStdout?.(chunk);
    });

    const killTree = () => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // the group is already gone
      }
    };
    // Its time, its caller's abort, its output's size and the memory of its whole tree; its CPU time is RLIMIT_CPU's.
    const watch = new ConversionWatch({
      timeoutMs: run.timeoutMs,
      cpuSeconds: Number.POSITIVE_INFINITY,
      // No stand-in signal for a run without one: every concurrent run (the engines' probes at start) would add a
      // listener to that one shared signal, past Node's warning.
      signal: run.signal,
      usage: child.pid ? new ProcessTreeUsage(child.pid) : undefined,
      residentBytes: this.profile.limits.residentBytes,
      outputPath: run.outputPath,
      maxOutputBytes: run.maxOutputBytes,
      onKill: () => {
        killTree();
        // The sandbox's first process leaves the group (its own session) and dies with its parent only once it has
        // asked to: killed before that, it would live on and hold our pipes. It carries the run's directory.
        void killTagged(workDir);
      },
    });

    try {
      const [exitCode, { childPid }] = await Promise.all([
        new Promise<number>((resolve, reject) => {
          child.once('error', (error) => reject(new ConversionError('provider_error', 'The conversion engine could not start.', true, error.message)));
          child.once('close', (code, signal) => resolve(code ?? (signal ? 128 : -1)));
        }),
        report,
      ]);
      if (watch.killedFor) {
        watch.killedFor.diagnostics = stderrTail;
        throw watch.killedFor;
      }
      if (wrapped.sandboxed && sandboxFailed(childPid, exitCode, stderrTail)) throw new ConversionError('provider_error', 'The engine sandbox could not start.', true, stderrTail);
      // Ghostscript reports a VMerror on stdout: both streams' ends are read.
      const limit = limitFailure(exitCode, `${stdout.slice(-STDERR_TAIL_BYTES)}\n${stderrTail}`, this.profile.limits);
      if (limit) throw limit;
      // A final check: the poll may have missed a burst written just before exit.
      if (run.outputPath && run.maxOutputBytes !== undefined) {
        const size = await stat(run.outputPath).then((s) => s.size, () => 0);
        if (size > run.maxOutputBytes) throw new ConversionError('file_too_large', `The output grew past ${run.maxOutputBytes} bytes.`);
      }
      return { exitCode, stdout, stderrTail };
    } finally {
      watch.stop();
      // Grandchildren left behind by a normal exit go too.
      killTree();
    }
  }
}
