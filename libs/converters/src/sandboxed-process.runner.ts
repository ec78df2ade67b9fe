import { spawn } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConversionError } from './conversion-error.js';

export interface SandboxedRun {
  command: string;
  /** Arguments as an array: never a shell, so no input can become a command. */
  args: readonly string[];
  /** The per-job temporary directory is created under this root and removed afterwards. */
  workRoot?: string;
  timeoutMs: number;
  /** Kills the process tree when this file grows past maxOutputBytes. */
  outputPath?: string;
  maxOutputBytes?: number;
  signal?: AbortSignal;
  onStdout?: (chunk: string) => void;
  /** Variables added to the minimal environment (e.g. where an engine finds its security policy). */
  env?: Readonly<Record<string, string>>;
  /** Test hook: the pid of the spawned process (also its process group id). */
  onSpawn?: (pid: number) => void;
}

export interface SandboxedResult {
  exitCode: number;
  stdout: string;
  stderrTail: string;
}

const STDERR_TAIL_BYTES = 4096;
const STDOUT_KEPT_BYTES = 64 * 1024;
const OUTPUT_POLL_MS = 100;

/**
 * Runs an external engine under limits shared by every engine: its own temporary directory as
 * cwd and HOME, a minimal environment without proxies, lowered priority, its own process group
 * (a timeout, an abort or an oversized output kills the whole tree), and the last 4 KB of stderr
 * kept for the failure message.
 */
export class SandboxedProcessRunner {
  async run(run: SandboxedRun): Promise<SandboxedResult> {
    run.signal?.throwIfAborted();
    const workDir = await mkdtemp(join(run.workRoot ?? tmpdir(), 'fileshift-job-'));
    try {
      return await this.spawnIn(workDir, run);
    } finally {
      await rm(workDir, { recursive: true, force: true });
    }
  }

  private async spawnIn(workDir: string, run: SandboxedRun): Promise<SandboxedResult> {
    // nice keeps conversions from starving the HTTP process on the same host.
    const child = spawn('nice', ['-n', '10', run.command, ...run.args], {
      cwd: workDir,
      env: { ...run.env, PATH: '/usr/local/bin:/usr/bin:/bin', HOME: workDir, TMPDIR: workDir, LANG: 'C.UTF-8' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    if (child.pid) run.onSpawn?.(child.pid);
    let stderrTail = '';
    let stdout = '';
    let killedFor: ConversionError | undefined;
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      stderrTail = (stderrTail + chunk).slice(-STDERR_TAIL_BYTES);
    });
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      stdout = (stdout + chunk).slice(-STDOUT_KEPT_BYTES);
      run.onStdout?.(chunk);
    });

    const killTree = (reason?: ConversionError) => {
      if (reason) killedFor ??= reason;
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // the group is already gone
      }
    };
    const timer = setTimeout(() => killTree(new ConversionError('timeout', `The conversion took longer than ${Math.round(run.timeoutMs / 1000)} s.`, true)), run.timeoutMs);
    const onAbort = () => killTree(new ConversionError('unknown', 'The conversion was cancelled.', true));
    run.signal?.addEventListener('abort', onAbort, { once: true });
    const watcher =
      run.outputPath && run.maxOutputBytes !== undefined
        ? setInterval(() => {
            void stat(run.outputPath!).then(
              (s) => {
                if (s.size > run.maxOutputBytes!) killTree(new ConversionError('file_too_large', `The output grew past ${run.maxOutputBytes} bytes.`));
              },
              () => undefined,
            );
          }, OUTPUT_POLL_MS)
        : undefined;

    try {
      const exitCode = await new Promise<number>((resolve, reject) => {
        child.once('error', (error) => reject(new ConversionError('provider_error', 'The conversion engine could not start.', true, error.message)));
        child.once('close', (code, signal) => resolve(code ?? (signal ? 128 : -1)));
      });
      if (killedFor) {
        killedFor.diagnostics = stderrTail;
        throw killedFor;
      }
      // A final check: the poll may have missed a burst written just before exit.
      if (run.outputPath && run.maxOutputBytes !== undefined) {
        const size = await stat(run.outputPath).then((s) => s.size, () => 0);
        if (size > run.maxOutputBytes) throw new ConversionError('file_too_large', `The output grew past ${run.maxOutputBytes} bytes.`);
      }
      return { exitCode, stdout, stderrTail };
    } finally {
      clearTimeout(timer);
      if (watcher) clearInterval(watcher);
      run.signal?.removeEventListener('abort', onAbort);
      // Grandchildren left behind by a normal exit go too.
      killTree();
    }
  }
}
