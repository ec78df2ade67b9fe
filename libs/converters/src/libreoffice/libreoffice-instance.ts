import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ConversionError } from '../conversion-error.js';
import type { NetworkIsolation } from './network-isolation.js';
import { writeProfile } from './libreoffice-profile.js';
import { killProcessGroup, killTagged, processesTagged } from './process-tree.js';
import { type BridgeReply, type BridgeRequest, UnoBridgeClient } from './uno-bridge-client.js';

export interface InstanceConfig {
  soffice: string;
  python: string;
  isolation: NetworkIsolation;
  /** The instance makes its directory (profile, HOME, TMPDIR) under this one, and removes it when it ends. */
  root: string;
  startTimeoutMs: number;
  /** Test hook: another bridge script. */
  bridgeScript?: string;
}

/** What watches one conversion: its time limit, its caller's signal, its output's size. */
export interface ConversionGuard {
  timeoutMs: number;
  signal: AbortSignal;
  outputPath: string;
  maxOutputBytes: number;
}

/** Why an instance ended. */
export type InstanceEnd = 'stopped' | 'retired' | 'crashed' | 'timeout' | 'cancelled' | 'output_too_large' | 'start_failed';

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

const OFFICE_FLAGS = ['--headless', '--invisible', '--nologo', '--norestore', '--nodefault', '--nolockcheck', '--nofirststartwizard'];
const OUTPUT_POLL_MS = 100;
/** setTimeout fires at once beyond 2^31 - 1 ms. */
const MAX_TIMER_MS = 2 ** 31 - 1;
const STDERR_TAIL = 4096;
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
 * One supervised soffice: a fresh profile of its own, its own process group (launcher, oosplash, soffice.bin),
 * optionally its own network namespace, a minimal environment, and our UNO bridge beside it. It converts one
 * document at a time and counts them. Whatever ends it (stop, crash, timeout, abort, output cap, retirement)
 * kills both process groups and every process still carrying its tag, then removes its directory and pipes.
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

  private office?: ChildProcess;
  private bridge?: UnoBridgeClient;
  private officeStderr = '';
  private ending?: Promise<void>;
  private endReason?: InstanceEnd;
  private busy = false;

  constructor(private readonly config: InstanceConfig) {
    this.dir = mkdtemp(join(config.root, 'fileshift-lo-'));
    this.dir.catch(() => undefined);
  }

  get ended(): boolean {
    return this.endReason !== undefined;
  }

  get idle(): boolean {
    return !this.busy && !this.ended;
  }

  /** Starts soffice and the bridge; resolves when the bridge has connected (the instance converts). */
  async start(): Promise<void> {
    const started = Date.now();
    const dir = await this.dir;
    this.tag = basename(dir);
    this.profileDir = join(dir, 'profile');
    await writeProfile(this.profileDir);
    await mkdir(join(dir, 'tmp'));
    if (this.ended) {
      // end() may have removed the directory before writeProfile made it again.
      await rm(dir, { recursive: true, force: true });
      throw new Error('the instance was stopped while starting');
    }
    // No proxies, no secrets: only what soffice needs; HOME and TMPDIR inside the instance directory.
    const env = { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: dir, TMPDIR: join(dir, 'tmp'), LANG: 'C.UTF-8' };
    const { isolation } = this.config;
    this.office = spawn(
      'nice',
      ['-n', '10', ...isolation.officePrefix, this.config.soffice, `-env:UserInstallation=${this.profileUrl()}`, ...OFFICE_FLAGS, `--accept=pipe,name=${this.tag};urp;`],
      { cwd: dir, env, stdio: ['ignore', 'ignore', 'pipe'], detached: true },
    );
    this.office.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      this.officeStderr = (this.officeStderr + chunk).slice(-STDERR_TAIL);
    });
    this.office.once('error', () => void this.end('crashed'));
    this.office.once('exit', () => void this.end('crashed'));

    this.bridge = new UnoBridgeClient({
      python: this.config.python,
      prefix: isolation.bridgePrefix,
      pipeName: this.tag,
      connectTimeoutMs: this.config.startTimeoutMs,
      officePgid: this.office.pid,
      instanceDir: dir,
      cwd: dir,
      env,
      script: this.config.bridgeScript,
    });
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
   * Converts one document. A timeout, an abort or an output past the cap kill the instance (its whole
   * process tree) and throw; so does a crash. Failures LibreOffice reports (a document it cannot load…)
   * come back as the bridge's reply and leave the instance running.
   */
  async convert(request: BridgeRequest, guard: ConversionGuard): Promise<BridgeReply> {
    if (this.ended || !this.bridge?.alive) throw new InstanceGoneError();
    if (this.busy) throw new Error('the instance is busy');
    this.busy = true;
    let killedFor: ConversionError | undefined;
    const kill = (reason: InstanceEnd, error: ConversionError) => {
      killedFor ??= error;
      void this.end(reason);
    };
    const timer = setTimeout(
      () => kill('timeout', new ConversionError('timeout', `The conversion took longer than ${Math.max(1, Math.round(guard.timeoutMs / 1000))} s.`, true)),
      Math.min(guard.timeoutMs, MAX_TIMER_MS),
    );
    const onAbort = () => kill('cancelled', new ConversionError('unknown', 'The conversion was cancelled.', true));
    guard.signal.addEventListener('abort', onAbort, { once: true });
    const watcher = setInterval(() => {
      void stat(guard.outputPath).then(
        (s) => {
          if (s.size > guard.maxOutputBytes) kill('output_too_large', new ConversionError('file_too_large', `The output grew past ${guard.maxOutputBytes} bytes.`));
        },
        () => undefined,
      );
    }, OUTPUT_POLL_MS);
    try {
      if (guard.signal.aborted) onAbort();
      // When the instance ends meanwhile (killed here, or soffice died), the bridge may not notice at once.
      const reply = await Promise.race([this.bridge.request(request), this.endedPromise()]);
      if (killedFor) throw killedFor;
      if (!reply) {
        await this.ending;
        throw new InstanceCrashedError(this.diagnostics());
      }
      this.conversions++;
      if (!reply.ok && (reply.kind === 'dead' || reply.kind === 'disconnected')) {
        // The bridge exits after these: the instance must not be offered again meanwhile.
        await this.end('crashed');
        if (reply.kind === 'dead') throw new InstanceGoneError(reply.error);
        throw new InstanceCrashedError(`${reply.error}\n${this.diagnostics()}`);
      }
      return reply;
    } catch (error) {
      if (killedFor) {
        // The caller learns of the kill once the whole tree is gone.
        killedFor.diagnostics = this.diagnostics();
        await this.ending;
        throw killedFor;
      }
      if (error instanceof ConversionError || error instanceof InstanceGoneError || error instanceof InstanceCrashedError) throw error;
      await this.end('crashed');
      throw new InstanceCrashedError(`${(error as Error).message}\n${this.diagnostics()}`);
    } finally {
      clearTimeout(timer);
      clearInterval(watcher);
      guard.signal.removeEventListener('abort', onAbort);
      this.busy = false;
    }
  }

  /** Synchronous last resort (process exit): SIGKILL to both process groups, nothing else. */
  killNow(): void {
    killProcessGroup(this.office?.pid);
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
      killProcessGroup(this.office?.pid);
      killProcessGroup(this.bridge?.pid);
      if (this.tag) await killTagged(this.tag);
      await Promise.race([
        Promise.all([this.office && this.office.exitCode === null && this.office.signalCode === null ? new Promise((r) => this.office!.once('exit', r)) : undefined, this.bridge?.exit]),
        new Promise((resolve) => setTimeout(resolve, 2000)),
      ]);
      // soffice.bin is a grandchild: it may outlive the group signal by a moment.
      if (this.tag) await killTagged(this.tag);
      const dir = await this.dir.catch(() => undefined);
      if (dir) await rm(dir, { recursive: true, force: true }).catch(() => undefined);
      await this.removePipes();
    })();
    this.onEnd?.(reason);
    return this.ending;
  }

  /** The UNO pipe and LibreOffice's single-instance pipe stay in /tmp when soffice is killed. */
  private async removePipes(): Promise<void> {
    if (!this.tag) return;
    await Promise.all(officePipePaths(this.config.isolation.innerUid, this.tag, this.profileUrl()).map((path) => rm(path, { force: true }).catch(() => undefined)));
  }

  private profileUrl(): string {
    return pathToFileURL(this.profileDir).href;
  }

  private diagnostics(): string {
    return [this.officeStderr.trim() && `soffice: ${this.officeStderr.trim()}`, this.bridge?.stderrTail() && `bridge: ${this.bridge.stderrTail()}`].filter(Boolean).join('\n');
  }
}
