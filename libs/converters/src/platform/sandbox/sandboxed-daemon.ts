import type { ChildProcess } from 'node:child_process';
import { mkdir, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { ConversionError } from '../conversion-error.js';
import type { EngineSandbox, PreparedCommand } from './engine-sandbox.js';
import { assertAbsolute } from './absolute-path.js';
import { limitFailure } from './limit-failure.js';
import { ownedDirectory } from './owned-directories.js';
import type { ProcessLimits } from './process-limits.js';
import { ConversionWatch, type WatchOptions } from './conversion-watch.js';
import { ProcessTreeUsage } from './process-tree-usage.js';
import { DEFAULT_SOCKET_POLICY, type SocketPolicy } from './seccomp/seccomp-rules.js';
import { spawnWrapped, type WrappedSpawnOptions } from './spawn-wrapped.js';
import { killTagged, processesTagged, type TaggedProcess } from './tagged-processes.js';

const STDERR_TAIL = 4096;
const STOP_GRACE_MS = 2000;

export interface SandboxedDaemonConfig {
  sandbox: EngineSandbox;
  /** Its directory (the sandbox's one writable place) is made under this one, and removed when it ends. */
  root: string;
  /** Its directory's name starts with this, so that the next pool sweeps what a killed worker left. */
  prefix: string;
  /** Its processes' limits: its engine's descriptor's (`engineProfile`), their CPU time spanning its life. */
  limits: ProcessLimits;
  /** The sockets its processes may open: its engine's descriptor's (default DEFAULT_SOCKET_POLICY). */
  sockets?: SocketPolicy;
  /** What it is, for errors: "the Node host", "the browser". */
  name: string;
  /** What it leaves outside its directory (unsandboxed, soffice's pipes in /tmp), removed once it has ended. */
  cleanUp?: () => Promise<void>;
}

/** What to start in the daemon's sandbox. */
export interface DaemonLaunch {
  command: string;
  args: readonly string[];
  /** Bound read-only beside the sandbox's system paths (a script, a program and its libraries). */
  readOnlyPaths?: readonly string[];
  /** Directories made in its directory before the sandbox's user is given it (an exchange, a temporary directory). */
  dirs?: readonly string[];
}

/**
 * The life of one long-lived engine process in a sandbox of its own (a warm pool's Node host, browser or LibreOffice):
 * its directory, its start, the tail of its stderr, its process tree's usage (CPU time, memory) for a request's watch,
 * its exit, its stop (the whole sandbox killed, its user released, its directory removed) and what its death means for
 * a request. The engine on top speaks its own protocol with `child`.
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

  /** Whether it runs in the engine sandbox (false before it is started, and where engines run unsandboxed). */
  get sandboxed(): boolean {
    return this.prepared?.wrapped.sandboxed ?? false;
  }

  /** Starts the command in its sandbox, its directory the one writable place and the working directory. */
  async spawn(launch: DaemonLaunch, options: Omit<WrappedSpawnOptions, 'cwd'>): Promise<ChildProcess> {
    const dir = await this.dir;
    for (const name of launch.dirs ?? []) await mkdir(join(dir, name));
    await this.refuseIfStopped(dir);
    const { command, args, readOnlyPaths } = launch;
    const sockets = this.config.sockets ?? DEFAULT_SOCKET_POLICY;
    this.prepared = await this.config.sandbox.prepare({ command, args, readOnlyPaths, writableDirs: [dir], cwd: dir, limits: this.config.limits, sockets });
    // Stopped while its sandbox was being prepared: nothing may be started after the stop.
    await this.refuseIfStopped(dir, this.prepared);
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
      await this.killStragglers();
      if (this.child) await Promise.race([this.exited, new Promise((resolve) => setTimeout(resolve, STOP_GRACE_MS))]);
      this.prepared?.release();
      // A process that left the group (soffice.bin, a sandbox killed as it started) may outlive the group's signal.
      await this.killStragglers();
      await rm(await this.dir.catch(() => ''), { recursive: true, force: true }).catch(() => undefined);
      await this.config.cleanUp?.();
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

  /** Its live processes: those carrying its directory's name (soffice's launcher, oosplash, soffice.bin, the bridge). */
  async processes(): Promise<TaggedProcess[]> {
    const dir = await this.dir.catch(() => undefined);
    return dir ? processesTagged(basename(dir)) : [];
  }

  /** One request's watch over its process tree; a limit passed ends it (`onKill`, by default a stop). */
  watch(options: Omit<WatchOptions, 'usage' | 'onKill'>, onKill: WatchOptions['onKill'] = () => void this.stop()): ConversionWatch {
    return new ConversionWatch({ ...options, usage: this.usage, onKill });
  }

  /** The limit a request's watch killed it for, once it is gone; undefined when the watch killed nothing. */
  async watchFailure(watch: ConversionWatch): Promise<ConversionError | undefined> {
    if (!watch.killedFor) return undefined;
    watch.killedFor.diagnostics = this.stderr;
    await this.ending;
    return watch.killedFor;
  }

  /** The sandbox limit an exit status (by default its own) stands for; undefined when it was none. */
  limitFailure(exitStatus = this.exitStatus ?? 1, diagnostics = this.stderr): ConversionError | undefined {
    return limitFailure(exitStatus, diagnostics, this.config.limits);
  }

  /** It died during a request: a sandbox limit is that failure; anything else, the input crashed it. */
  async crashFailure(message: string): Promise<ConversionError> {
    await this.exited;
    return this.limitFailure() ?? new ConversionError('unsupported_or_corrupt_input', message, false, this.stderr);
  }

  /** A stop during its start: what the start made goes (a stop may have run before it was made), nothing is started. */
  private async refuseIfStopped(dir: string, prepared?: PreparedCommand): Promise<void> {
    if (!this.ending) return;
    prepared?.release();
    await rm(dir, { recursive: true, force: true });
    throw new Error(`${this.config.name} was stopped while starting`);
  }

  /**
   * Its processes may leave its process group (the sandbox's first process, before it asks to die with its parent;
   * soffice's launcher, which forks oosplash, which starts soffice.bin): every one carries its directory's name in
   * its command line, and whatever still does is killed when it ends.
   */
  private async killStragglers(): Promise<void> {
    const dir = await this.dir.catch(() => undefined);
    if (dir) await killTagged(basename(dir));
  }
}
