import { createHash } from 'node:crypto';
import { copyFile, link, mkdir, readdir, rename, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ConversionError } from '../../platform/conversion-error.js';
import type { EngineSandbox, PreparedCommand } from '../../platform/sandbox/engine-sandbox.js';
import { engineEnvironment } from '../../platform/sandbox/engine-environment.js';
import { limitFailure } from '../../platform/sandbox/limit-failure.js';
import { ownedDirectory } from '../../platform/sandbox/owned-directories.js';
import type { ProcessLimits } from '../../platform/sandbox/process-limits.js';
import { ConversionWatch } from '../../platform/sandbox/conversion-watch.js';
import { ProcessTreeUsage } from '../../platform/sandbox/process-tree-usage.js';
import type { SocketPolicy } from '../../platform/sandbox/seccomp/seccomp-rules.js';
import { spawnWrapped } from '../../platform/sandbox/spawn-wrapped.js';
import { writeProfile } from './libreoffice-profile.js';
import { killProcessGroup, killTagged, processesTagged } from './process-tree.js';
import { type BridgeReply, type BridgeRequest, bridgeCommand, UnoBridgeClient } from './uno-bridge-client.js';

export interface InstanceConfig {
  soffice: string;
  python: string;
  /** The worker's engine sandbox: soffice and the bridge run in one sandbox of it, this directory its writable place. */
  sandbox: EngineSandbox;
  /** Each process's limits (CPU time: the instance's whole life; a conversion's own is `ConversionGuard.cpuSeconds`). */
  limits: ProcessLimits;
  sockets: SocketPolicy;
  /** The instance makes its directory (profile, HOME, TMPDIR, exchange) under this one, and removes it when it ends. */
  root: string;
  startTimeoutMs: number;
  /** Test hook: another bridge script. */
  bridgeScript?: string;
}

/** What watches one conversion: its time limit, its CPU time, its caller's signal, its output's size. */
export interface ConversionGuard {
  timeoutMs: number;
  cpuSeconds: number;
  /** What the instance's processes may hold resident while it converts. */
  residentBytes: number;
  signal: AbortSignal;
  maxOutputBytes: number;
}

/** One conversion as the runtime asks for it: files anywhere on the worker; the instance stages them in its sandbox. */
export interface InstanceConversion extends Omit<BridgeRequest, 'input' | 'output'> {
  inputPath: string;
  outputPath: string;
}

/** Why an instance ended. */
export type InstanceEnd = 'stopped' | 'retired' | 'crashed' | 'timeout' | 'cancelled' | 'output_too_large' | 'memory' | 'start_failed';

/** The instance was gone before the document was touched: the conversion may go to another instance as is. */
export class InstanceGoneError extends Error {
  constructor(message = 'the LibreOffice instance is gone') {
    super(message);
    this.name = 'InstanceGoneError';
  }
}

/** The instance died during a conversion (soffice crashed, or its bridge did): the document may be why. */
export class InstanceCrashedError extends Error {
  constructor(readonly diagnostics: string) {
    super('the LibreOffice instance crashed during the conversion');
    this.name = 'InstanceCrashedError';
  }
}

/** Instance directories: `fileshift-lo-<host>_<pid>-XXXXXX`, swept by the next pool when their worker is gone. */
export const INSTANCE_PREFIX = 'fileshift-lo-';
const OFFICE_FLAGS = ['--headless', '--invisible', '--nologo', '--norestore', '--nodefault', '--nolockcheck', '--nofirststartwizard'];
/** osl puts its pipes here (sal/osl/unx/pipe.cxx), or in /var/tmp when /tmp is not writable. */
const PIPE_DIRS = ['/tmp', '/var/tmp'];

/**
 * The sockets an soffice accepting on pipe `pipeName` with profile `profileUrl` makes (sal/osl names them
 * OSL_PIPE_<uid>_<name>): the UNO pipe and the single-instance pipe, named after an MD5 of the profile URL
 * (UTF-16) in unpadded hex.
 */
export function officePipePaths(uid: number, pipeName: string, profileUrl: string): string[] {
  const digest = createHash('md5').update(Buffer.from(profileUrl, 'utf16le')).digest();
  const ipc = `SingleOfficeIPC_${[...digest].map((byte) => byte.toString(16)).join('')}`;
  return PIPE_DIRS.flatMap((dir) => [pipeName, ipc].map((name) => `${dir}/OSL_PIPE_${uid}_${name}`));
}

/**
 * One supervised soffice: a fresh profile of its own, our UNO bridge, which starts soffice beside it, both in one
 * engine sandbox (its directory the only writable place, the pipe between them inside it), a minimal environment.
 * It converts one document at a time, staged in its exchange directory, and counts them. Whatever ends it (stop,
 * crash, timeout, CPU time, abort, output cap, retirement) kills the sandbox — every process in it — and every
 * process still carrying its tag, then removes its directory and pipes.
 */
export class LibreOfficeInstance {
  readonly dir: Promise<string>;
  /** Unique, in every command line of the instance's processes (its pipe name and directory name). */
  tag = '';
  profileDir = '';
  version = '';
  conversions = 0;
  startedInMs = 0;
  /** Called once when the instance ends on its own (crash) or is ended (any other reason). */
  onEnd?: (reason: InstanceEnd) => void;

  private bridge?: UnoBridgeClient;
  private usage?: ProcessTreeUsage;
  private prepared?: PreparedCommand;
  private sandboxed = false;
  private ending?: Promise<void>;
  private endReason?: InstanceEnd;
  private busy = false;

  constructor(private readonly config: InstanceConfig) {
    this.dir = ownedDirectory(config.root, INSTANCE_PREFIX);
    this.dir.catch(() => undefined);
  }

  get ended(): boolean {
    return this.endReason !== undefined;
  }

  get idle(): boolean {
    return !this.busy && !this.ended;
  }

  /** Starts the bridge and soffice in their sandbox; resolves when the bridge has connected (the instance converts). */
  async start(): Promise<void> {
    const started = Date.now();
    const dir = await this.dir;
    this.tag = basename(dir);
    this.profileDir = join(dir, 'profile');
    await writeProfile(this.profileDir);
    await mkdir(join(dir, 'tmp'));
    await mkdir(this.exchangeDir(dir));
    if (this.ended) {
      // end() may have removed the directory before writeProfile made it again.
      await rm(dir, { recursive: true, force: true });
      throw new Error('the instance was stopped while starting');
    }
    const office = [this.config.soffice, `-env:UserInstallation=${this.profileUrl()}`, ...OFFICE_FLAGS, `--accept=pipe,name=${this.tag};urp;`];
    const bridge = bridgeCommand({ python: this.config.python, pipeName: this.tag, connectTimeoutMs: this.config.startTimeoutMs, instanceDir: dir, office, script: this.config.bridgeScript });
    this.prepared = await this.config.sandbox.prepare({
      command: bridge.command,
      args: bridge.args,
      writableDirs: [dir],
      readOnlyPaths: [bridge.script],
      cwd: dir,
      limits: this.config.limits,
      sockets: this.config.sockets,
    });
    this.sandboxed = this.prepared.wrapped.sandboxed;
    // Stopped while its sandbox was being prepared: nothing may be started after the stop.
    if (this.ended) {
      this.prepared.release();
      await rm(dir, { recursive: true, force: true });
      throw new Error('the instance was stopped while starting');
    }
    // No proxies, no secrets: only what soffice needs; HOME and TMPDIR inside the instance directory.
    const { child } = spawnWrapped(this.prepared.wrapped, { cwd: dir, env: engineEnvironment(dir, join(dir, 'tmp')), stdin: 'pipe' });
    this.bridge = new UnoBridgeClient(child);
    if (child.pid) this.usage = new ProcessTreeUsage(child.pid);
    void this.bridge.exit.then(() => this.end('crashed'));

    let timer: NodeJS.Timeout | undefined;
    try {
      this.version = await Promise.race([
        this.bridge.ready,
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`not ready within ${this.config.startTimeoutMs} ms`)), this.config.startTimeoutMs + 2000);
        }),
      ]);
    } catch (error) {
      const diagnostics = this.diagnostics();
      await this.end('start_failed');
      throw new Error(`LibreOffice did not start: ${(error as Error).message}${diagnostics ? `\n${diagnostics}` : ''}`);
    } finally {
      clearTimeout(timer);
    }
    if (this.ended) throw new Error(`LibreOffice did not start: it exited at once\n${this.diagnostics()}`);
    this.startedInMs = Date.now() - started;
  }

  /**
   * Converts one document: the input is staged in the instance's exchange directory (a hard link), the output
   * written there and moved to `outputPath`, the exchange emptied after. A timeout, the CPU limit, an abort or an
   * output past the cap kill the instance (its whole sandbox) and throw; so does a crash. Failures LibreOffice
   * reports (a document it cannot load…) come back as the bridge's reply and leave the instance running.
   */
  async convert(conversion: InstanceConversion, guard: ConversionGuard): Promise<BridgeReply> {
    if (this.ended || !this.bridge?.alive) throw new InstanceGoneError();
    if (this.busy) throw new Error('the instance is busy');
    this.busy = true;
    const exchange = this.exchangeDir(await this.dir);
    const { inputPath, outputPath, ...request } = conversion;
    const stagedInput = join(exchange, `input-${basename(inputPath)}`);
    const stagedOutput = join(exchange, basename(outputPath));
    const watch = new ConversionWatch({
      timeoutMs: guard.timeoutMs,
      cpuSeconds: guard.cpuSeconds,
      signal: guard.signal,
      usage: this.usage,
      residentBytes: guard.residentBytes,
      outputPath: stagedOutput,
      maxOutputBytes: guard.maxOutputBytes,
      onKill: (reason) => void this.end(reason),
    });
    try {
      await stage(inputPath, stagedInput);
      // When the instance ends meanwhile (killed here, or soffice died), the bridge may not notice at once.
      const reply = await Promise.race([this.bridge.request({ ...request, input: stagedInput, output: stagedOutput }), this.endedPromise()]);
      if (watch.killedFor) throw watch.killedFor;
      if (!reply) {
        await this.ending;
        throw this.crashFailure();
      }
      this.conversions++;
      if (!reply.ok && (reply.kind === 'dead' || reply.kind === 'disconnected')) {
        // The bridge exits after these: the instance must not be offered again meanwhile.
        await this.end('crashed');
        if (reply.kind === 'dead') throw new InstanceGoneError(reply.error);
        throw this.crashFailure(reply.error);
      }
      if (reply.ok) await move(stagedOutput, outputPath);
      return reply;
    } catch (error) {
      if (watch.killedFor) {
        // The caller learns of the kill once the whole tree is gone.
        watch.killedFor.diagnostics = this.diagnostics();
        await this.ending;
        throw watch.killedFor;
      }
      if (error instanceof ConversionError || error instanceof InstanceGoneError || error instanceof InstanceCrashedError) throw error;
      await this.end('crashed');
      throw this.crashFailure((error as Error).message);
    } finally {
      watch.stop();
      await emptyDirectory(exchange);
      this.busy = false;
    }
  }

  /** Synchronous last resort (process exit): SIGKILL to the sandbox's process group, nothing else. */
  killNow(): void {
    killProcessGroup(this.bridge?.pid);
  }

  /** Ends the instance (idempotent): kills its process groups and stragglers, removes its files. */
  stop(reason: InstanceEnd = 'stopped'): Promise<void> {
    return this.end(reason);
  }

  /** The live processes of this instance (soffice launcher, oosplash, soffice.bin, the bridge). */
  async processes() {
    return this.tag ? processesTagged(this.tag) : [];
  }

  /** The pid of soffice.bin, the process that does the work. */
  async officePid(): Promise<number | undefined> {
    return (await this.processes()).find((p) => p.name === 'soffice.bin')?.pid;
  }

  get reason(): InstanceEnd | undefined {
    return this.endReason;
  }

  private endedWaiters: Array<() => void> = [];

  /** Resolves (with undefined) once the instance has ended: a pending conversion must not wait for its reply. */
  private endedPromise(): Promise<undefined> {
    if (this.ended) return Promise.resolve(undefined);
    return new Promise((resolve) => this.endedWaiters.push(() => resolve(undefined)));
  }

  private end(reason: InstanceEnd): Promise<void> {
    if (this.ending) return this.ending;
    this.endReason = reason;
    for (const waiter of this.endedWaiters.splice(0)) waiter();
    this.ending = (async () => {
      // The sandbox's first process: with it go all of the sandbox's (they die with their parent and pid namespace).
      killProcessGroup(this.bridge?.pid);
      if (this.tag) await killTagged(this.tag);
      await Promise.race([this.bridge?.exit, new Promise((resolve) => setTimeout(resolve, 2000))]);
      this.prepared?.release();
      // soffice.bin is a grandchild: it may outlive the group signal by a moment.
      if (this.tag) await killTagged(this.tag);
      const dir = await this.dir.catch(() => undefined);
      if (dir) await rm(dir, { recursive: true, force: true }).catch(() => undefined);
      await this.removePipes();
    })();
    this.onEnd?.(reason);
    return this.ending;
  }

  /** Unsandboxed, the UNO pipe and LibreOffice's single-instance pipe stay in /tmp when soffice is killed (a sandbox's /tmp goes with it). */
  private async removePipes(): Promise<void> {
    if (!this.tag || this.sandboxed) return;
    await Promise.all(officePipePaths(process.getuid?.() ?? 0, this.tag, this.profileUrl()).map((path) => rm(path, { force: true }).catch(() => undefined)));
  }

  private exchangeDir(dir: string): string {
    return join(dir, 'exchange');
  }

  /**
   * Why the instance died during a conversion: a limit or the sandbox (soffice ended by SIGSYS, SIGXCPU, or out of
   * memory) is that failure, final; anything else a crash the pool may retry once on a fresh instance.
   */
  private crashFailure(detail?: string): ConversionError | InstanceCrashedError {
    const diagnostics = [detail, this.diagnostics()].filter(Boolean).join('\n');
    const code = this.bridge?.officeExitCode;
    const status = code !== undefined && code < 0 ? 128 - code : (code ?? 0);
    return limitFailure(status, diagnostics, this.config.limits) ?? new InstanceCrashedError(diagnostics);
  }

  private profileUrl(): string {
    return pathToFileURL(this.profileDir).href;
  }

  private diagnostics(): string {
    return this.bridge?.stderrTail() ? `bridge and soffice: ${this.bridge.stderrTail()}` : '';
  }
}

/** Puts the input into the exchange directory: a hard link when both are on one file system, else a copy. */
async function stage(from: string, to: string): Promise<void> {
  await link(from, to).catch(() => copyFile(from, to));
}

/** Moves the output out of the exchange directory. */
async function move(from: string, to: string): Promise<void> {
  await rename(from, to).catch(async () => {
    await copyFile(from, to);
    await rm(from, { force: true });
  });
}

async function emptyDirectory(dir: string): Promise<void> {
  const entries = await readdir(dir).catch(() => [] as string[]);
  await Promise.all(entries.map((entry) => rm(join(dir, entry), { recursive: true, force: true })));
}
