import { spawn } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { ConversionError } from './conversion-error.js';

export interface SandboxedRun {
  command: string;
  /** Arguments as an array: never a shell, so no input can become a command. */
  args: readonly string[];
  /** The per-job temporary directory; the process runs there with HOME pointing at it. */
  cwd: string;
  timeoutMs: number;
  /** Kills the process when this file grows past maxOutputBytes. */
  outputPath?: string;
  maxOutputBytes?: number;
  signal?: AbortSignal;
  onStdout?: (chunk: string) => void;
}

export interface SandboxedResult {
  exitCode: number;
  stderrTail: string;
}

const STDERR_TAIL_BYTES = 4096;
const OUTPUT_POLL_MS = 100;

/**
 * Runs an external engine under limits shared by every engine: minimal environment without
 * proxies, its own process group (a timeout, an abort or an oversized output kills the whole tree),
 * and the last 4 KB of stderr kept for the failure message.
 */
export class SandboxedProcessRunner {
  async run(run: SandboxedRun): Promise<SandboxedResult> {
    run.signal?.throwIfAborted();
    const child = spawn(run.command, run.args, {
      cwd: run.cwd,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: run.cwd, TMPDIR: run.cwd, LANG: 'C.UTF-8' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let stderrTail = '';
    let killedFor: ConversionError | undefined;
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      stderrTail = (stderrTail + chunk).slice(-STDERR_TAIL_BYTES);
    });
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => run.onStdout?.(chunk));

    const killTree = (reason: ConversionError) => {
      killedFor ??= reason;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(() => killTree(new ConversionError('timeout', `The conversion took longer than ${Math.round(run.timeoutMs / 1000)} s.`, true)), run.timeoutMs);
    const onAbort = () => killTree(new ConversionError('unknown', 'The conversion was cancelled.', true));
    run.signal?.addEventListener('abort', onAbort, { once: true });
    const watcher =
      run.outputPath && run.maxOutputBytes
        ? setInterval(async () => {
            const size = await stat(run.outputPath!).then((s) => s.size, () => 0);
            if (size > run.maxOutputBytes!) killTree(new ConversionError('file_too_large', `The output grew past ${run.maxOutputBytes} bytes.`));
          }, OUTPUT_POLL_MS)
        : undefined;

    try {
      const exitCode = await new Promise<number>((resolve, reject) => {
        child.once('error', (error) => reject(new ConversionError('provider_error', `The ${run.command} engine could not start.`, false, error.message)));
        child.once('close', (code) => resolve(code ?? -1));
      });
      if (killedFor) throw Object.assign(killedFor, { diagnostics: stderrTail });
      return { exitCode, stderrTail };
    } finally {
      clearTimeout(timer);
      if (watcher) clearInterval(watcher);
      run.signal?.removeEventListener('abort', onAbort);
      // Grandchildren left behind by a normal exit go too.
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // none left
      }
    }
  }
}
