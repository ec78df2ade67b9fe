import { type ChildProcess, spawn, type StdioPipe } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { SECCOMP_FD, STATUS_FD, type WrappedCommand } from './wrapped-command.js';

export interface WrappedSpawnOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** `pipe` for warm engines driven over stdin/stdout. */
  stdin?: 'ignore' | 'pipe';
  /** Pipes on descriptors 5, 6… (past bubblewrap's two), for engines driven over descriptors of their own (Chromium's DevTools pipe). */
  extraPipes?: number;
}

/** bubblewrap's report of the sandboxed command (its `--json-status-fd`). */
export interface SandboxReport {
  /** The command started: its pid as the worker sees it. Absent: the sandbox itself failed (a mount, a namespace). */
  childPid?: number;
}

export interface WrappedChild {
  child: ChildProcess;
  /** Settles when the process has closed its status descriptor (it ended, or the sandbox started it and went on). */
  report: Promise<SandboxReport>;
  /** Resolves once the sandbox reported the command started (with its pid outside), undefined when it never will. */
  started: Promise<number | undefined>;
}

/**
 * Spawns a wrapped command in a process group of its own (a kill of the group takes bubblewrap, and with it the
 * whole sandbox: its processes die with their parent and their pid namespace). For a sandboxed command, the
 * seccomp program goes in on descriptor 4 and bubblewrap's status comes out on descriptor 3.
 */
export function spawnWrapped(wrapped: WrappedCommand, options: WrappedSpawnOptions): WrappedChild {
  const stdio: Array<'ignore' | StdioPipe> = [options.stdin ?? 'ignore', 'pipe', 'pipe'];
  if (wrapped.sandboxed) stdio.push('pipe', 'pipe');
  else if (options.extraPipes) stdio.push('ignore', 'ignore');
  for (let pipe = 0; pipe < (options.extraPipes ?? 0); pipe++) stdio.push('pipe');
  const child = spawn(wrapped.command, wrapped.args, { cwd: options.cwd, env: options.env, stdio, detached: true, ...wrapped.identity });
  if (!wrapped.sandboxed) {
    const started = Promise.resolve(child.pid);
    return { child, started, report: started.then((childPid) => ({ childPid })) };
  }
  const seccompPipe = child.stdio[SECCOMP_FD] as Writable | null;
  seccompPipe?.on('error', () => undefined);
  if (wrapped.seccomp) seccompPipe?.end(wrapped.seccomp);
  else seccompPipe?.end();

  let resolveStarted!: (pid: number | undefined) => void;
  const started = new Promise<number | undefined>((resolve) => (resolveStarted = resolve));
  const report = new Promise<SandboxReport>((resolve) => {
    const statusPipe = child.stdio[STATUS_FD] as Readable | null;
    if (!statusPipe) return resolve({});
    const found: SandboxReport = {};
    let text = '';
    statusPipe.setEncoding('utf8');
    statusPipe.on('data', (chunk: string) => {
      text += chunk;
      const pid = /"child-pid"\s*:\s*(\d+)/.exec(text)?.[1];
      if (pid && found.childPid === undefined) {
        found.childPid = Number(pid);
        resolveStarted(found.childPid);
      }
    });
    statusPipe.on('error', () => undefined);
    statusPipe.on('close', () => {
      resolveStarted(found.childPid);
      resolve(found);
    });
  });
  child.once('error', () => resolveStarted(undefined));
  return { child, report, started };
}

/**
 * Whether a sandboxed command's end was the sandbox's own failure (a bind, a namespace), not the command's: it
 * never started, or bubblewrap's setup (in the sandbox's first process, before the command) said why and exited 1.
 */
export function sandboxFailed(childPid: number | undefined, exitCode: number, stderrTail: string): boolean {
  return childPid === undefined || (exitCode === 1 && /^bwrap: /m.test(stderrTail));
}
