import type { ChildProcess } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { ConversionError } from '../conversion-error.js';
import type { EngineSandbox, PreparedCommand, SandboxRequest } from './engine-sandbox.js';
import { assertAbsolute } from './absolute-path.js';
import { limitFailure } from './limit-failure.js';
import { ownedDirectory } from './owned-directories.js';
import type { ProcessLimits } from './process-limits.js';
import type { ConversionWatch } from './conversion-watch.js';
import { ProcessTreeUsage } from './process-tree-usage.js';
import { spawnWrapped, type WrappedSpawnOptions } from './spawn-wrapped.js';

const STDERR_TAIL = 4096;
const STOP_GRACE_MS = 2000;

export interface SandboxedDaemonConfig {
  sandbox: EngineSandbox;
  /** Its directory (the sandbox's one writable place) is made under this one, and removed when it ends. */
  root: string;
  /** Its directory's name starts with this, so that the next pool sweeps what a killed worker left. */
  prefix: string;
  limits: ProcessLimits;
  /** What it is, for errors: "the Node host", "the browser". */
  name: string;
}

/**
 * The life of one long-lived engine process in a sandbox of its own (a warm pool's Node host or browser): its
 * directory, its start, the tail of its stderr, its exit, its stop (the whole sandbox killed, its user released, its
 * directory removed) and what its death means for a request. The engine on top speaks its own protocol with `child`.
 */
export class SandboxedDaemon {
  readonly dir: Promise<string>;
  child?: ChildProcess;
  /** What its process tree uses (CPU time, memory), for a request's watch. */
  usage?: ProcessTreeUsage;
  prepared?: PreparedCommand;
  stderr = '';
  exitStatus?: number;
  /** Resolves when the process has ended. */
  readonly exited: Promise<void>;
  private markExited!: () => void;
  private ending?: Promise<void>;

  constructor(private readonly config: SandboxedDaemonConfig) {
    this.dir = ownedDirectory(assertAbsolute(config.root, `the root of ${config.name}`), config.prefix);
    this.dir.catch(() => undefined);
    this.exited = new Promise((resolve) => (this.markExited = resolve));
  }

  get ended(): boolean {
    return this.ending !== undefined || this.exitStatus !== undefined;
  }

  /** Starts the command in its sandbox, its directory the one writable place and the working directory. */
  async spawn(request: Omit<SandboxRequest, 'writableDirs' | 'cwd' | 'limits'>, options: Omit<WrappedSpawnOptions, 'cwd'>): Promise<ChildProcess> {
    const dir = await this.dir;
    this.prepared = await this.config.sandbox.prepare({ ...request, writableDirs: [dir], cwd: dir, limits: this.config.limits });
    // Stopped while its sandbox was being prepared: nothing may be started after the stop.
    if (this.ending) {
      this.prepared.release();
      throw new Error(`${this.config.name} was stopped while starting`);
    }
    const { child } = spawnWrapped(this.prepared.wrapped, { ...options, cwd: dir });
    this.child = child;
    if (child.pid) this.usage = new ProcessTreeUsage(child.pid);
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => this.noteDiagnostics(chunk));
    child.once('close', (code, signal) => {
      this.exitStatus = code ?? (signal ? 128 : 1);
      this.markExited();
    });
    child.once('error', () => {
      this.exitStatus ??= 1;
      this.markExited();
    });
    return child;
  }

  /** Keeps the last few kilobytes of what the process said, for a failure's diagnostics. */
  noteDiagnostics(text: string): void {
    this.stderr = (this.stderr + text).slice(-STDERR_TAIL);
  }

  /** Why it did not start, with what it said. */
  startFailure(error: unknown): Error {
    void this.stop();
    return new Error(`${this.config.name} did not start: ${(error as Error).message}${this.stderr ? `\n${this.stderr.trim()}` : ''}`);
  }

  /** Ends it (idempotent): kills its sandbox, waits a little for the exit, releases its user, removes its directory. */
  stop(): Promise<void> {
    this.ending ??= (async () => {
      this.killNow();
      if (this.child) await Promise.race([this.exited, new Promise((resolve) => setTimeout(resolve, STOP_GRACE_MS))]);
      this.prepared?.release();
      await rm(await this.dir.catch(() => ''), { recursive: true, force: true }).catch(() => undefined);
    })();
    return this.ending;
  }

  /** Synchronous last resort (the worker's exit): the whole process group. */
  killNow(): void {
    try {
      if (this.child?.pid) process.kill(-this.child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }

  /** The limit a request's watch killed it for, once it is gone; undefined when the watch killed nothing. */
  async watchFailure(watch: ConversionWatch): Promise<ConversionError | undefined> {
    if (!watch.killedFor) return undefined;
    watch.killedFor.diagnostics = this.stderr;
    await this.ending;
    return watch.killedFor;
  }

  /** It died during a request: a sandbox limit is that failure; anything else, the input crashed it. */
  async crashFailure(message: string): Promise<ConversionError> {
    await this.exited;
    return limitFailure(this.exitStatus ?? 1, this.stderr, this.config.limits) ?? new ConversionError('unsupported_or_corrupt_input', message, false, this.stderr);
  }
}
