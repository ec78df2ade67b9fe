import { spawn } from 'node:child_process';
import type { OrphanReaper } from './orphan-reaper.js';

/** A server process a test owns: a child, never daemonized, that its reaper kills if the test process dies. */
export interface ServerChild {
  readonly pid: number;
  /** The last part of what the server printed (stdout and stderr), for error messages. */
  output(): string;
  isRunning(): boolean;
  /** Polls `probe` until it answers true; fails early, with the output, if the server exits first. */
  waitUntilReady(probe: () => Promise<boolean>, timeoutMs: number): Promise<void>;
  /** Sends `signal`, then SIGKILL if the server has not exited after `graceMs`; resolves once it has exited. */
  stop(signal: NodeJS.Signals, graceMs?: number): Promise<void>;
}

export interface ServerChildOptions {
  /** Shown in error messages, e.g. "redis-server on port 6390". */
  name: string;
  command: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  uid?: number;
  gid?: number;
  /** Told the pid while the server runs, so it can kill it if the test process dies. */
  reaper: OrphanReaper;
}

const KEPT_OUTPUT_CHARS = 16_000;
const POLL_MS = 50;

export async function spawnServerChild(options: ServerChildOptions): Promise<ServerChild> {
  const { name, command, args, cwd, env, uid, gid, reaper } = options;
  const child = spawn(command, args, { cwd, env, uid, gid, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-KEPT_OUTPUT_CHARS);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);

  let running = true;
  let exitDescription = '';
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      running = false;
      exitDescription = signal ? `signal ${signal}` : `code ${code}`;
      reaper.forget(child.pid!);
      resolve();
    }),
  );

  await new Promise<void>((resolve, reject) => {
    let spawned = false;
    child.once('spawn', () => {
      spawned = true;
      reaper.watch(child.pid!);
      resolve();
    });
    // Also keeps a later error (a failed kill) from becoming an uncaught 'error' event.
    child.on('error', (error) => {
      if (spawned) return;
      running = false;
      reject(new Error(`${name}: could not start ${command}: ${error.message}`));
    });
  });

  return {
    pid: child.pid!,
    output: () => output,
    isRunning: () => running,
    async waitUntilReady(probe, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        if (!running) throw new Error(`${name} exited (${exitDescription}) before it was ready. Its output:\n${output}`);
        if (await probe().catch(() => false)) return;
        if (Date.now() > deadline) throw new Error(`${name} was not ready after ${timeoutMs} ms. Its output:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
    },
    async stop(signal, graceMs = 10_000) {
      if (!running) return;
      child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      try {
        await exited;
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
