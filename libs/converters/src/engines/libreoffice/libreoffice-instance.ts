import { createHash } from 'node:crypto';
import { copyFile, link, readdir, rename, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ConversionError } from '../../platform/conversion-error.js';
import type { EngineSandbox } from '../../platform/sandbox/engine-sandbox.js';
import type { RequestLimits } from '../../platform/sandbox/conversion-watch.js';
import { engineEnvironment } from '../../platform/sandbox/engine-environment.js';
import { SandboxedDaemon } from '../../platform/sandbox/sandboxed-daemon.js';
import type { EngineProfile } from '../../platform/sandboxed-process.runner.js';
import { writeProfile } from './libreoffice-profile.js';
import { type BridgeReply, type BridgeRequest, bridgeCommand, UnoBridgeClient } from './uno-bridge-client.js';

/**
 * Its descriptor's limits and socket policy (`engineProfile`; CPU time: the instance's whole life, a conversion's own
 * is `RequestLimits.cpuSeconds`), and what it runs.
 */
export interface InstanceConfig extends EngineProfile {
  soffice: string;
  python: string;
  /** The worker's engine sandbox: soffice and the bridge run in one sandbox of it, this directory its writable place. */
  sandbox: EngineSandbox;
  /** The instance makes its directory (profile, HOME, TMPDIR, exchange) under this one, and removes it when it ends. */
  root: string;
  startTimeoutMs: number;
  /** Test hook: another bridge script. */
  bridgeScript?: string;
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
/** In the instance's directory: HOME and TMPDIR, and where each conversion's input and output are staged. */
const TMP_DIR = 'tmp';
const EXCHANGE_DIR = 'exchange';
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
 * warm engine sandbox (a SandboxedDaemon: its directory the only writable place, the pipe between them inside it, a
 * minimal environment). It converts one document at a time, staged in its exchange directory, and counts them.
 * Whatever ends it (stop, crash, timeout, CPU time, memory, abort, output cap, retirement) ends the daemon, which kills
 * the sandbox — every process in it — and every process still carrying its tag, then removes its directory and pipes.
 */
export class LibreOfficeInstance {
  /** Unique, in every command line of the instance's processes (its pipe name and directory name). */
  tag = '';
  profileDir = '';
  version = '';
  conversions = 0;
  startedInMs = 0;
  /** Called once when the instance ends on its own (crash) or is ended (any other reason). */
  onEnd?: (reason: InstanceEnd) => void;

  private readonly daemon: SandboxedDaemon;
  private bridge?: UnoBridgeClient;
  private ending?: Promise<void>;
  private endReason?: InstanceEnd;
  private busy = false;
  private endedWaiters: Array<() => void> = [];

  constructor(private readonly config: InstanceConfig) {
    this.daemon = new SandboxedDaemon({
      sandbox: config.sandbox,
      root: config.root,
      limits: config.limits,
      sockets: config.sockets,
      prefix: INSTANCE_PREFIX,
      name: 'LibreOffice',
      cleanUp: () => this.removePipes(),
    });
  }

  get ended(): boolean {
    return this.endReason !== undefined;
  }

  get idle(): boolean {
    return !this.busy && !this.ended;
  }

  get reason(): InstanceEnd | undefined {
    return this.endReason;
  }

  /** Starts the bridge and soffice in their sandbox; resolves when the bridge has connected (the instance converts). */
  async start(): Promise<void> {
    const started = Date.now();
    const dir = await this.daemon.dir;
    this.tag = basename(dir);
    this.profileDir = join(dir, 'profile');
    await writeProfile(this.profileDir);
    const office = [this.config.soffice, `-env:UserInstallation=${this.profileUrl()}`, ...OFFICE_FLAGS, `--accept=pipe,name=${this.tag};urp;`];
    const bridge = bridgeCommand({ python: this.config.python, pipeName: this.tag, connectTimeoutMs: this.config.startTimeoutMs, instanceDir: dir, office, script: this.config.bridgeScript });
    // No proxies, no secrets: only what soffice needs; HOME and TMPDIR inside the instance directory.
    const child = await this.daemon.spawn(
      { command: bridge.command, args: bridge.args, readOnlyPaths: [bridge.script], dirs: [TMP_DIR, EXCHANGE_DIR] },
      { env: engineEnvironment(dir, join(dir, TMP_DIR)), stdin: 'pipe' },
    );
    this.bridge = new UnoBridgeClient(child, this.daemon);
    void this.daemon.exited.then(() => this.end('crashed'));

    let timer: NodeJS.Timeout | undefined;
    try {
      this.version = await Promise.race([
        this.bridge.ready,
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`not ready within ${this.config.startTimeoutMs} ms`)), this.config.startTimeoutMs + 2000);
        }),
      ]);
    } catch (error) {
      const failure = this.daemon.startFailure(error);
      await this.end('start_failed');
      throw failure;
    } finally {
      clearTimeout(timer);
    }
    if (this.ended) throw this.daemon.startFailure(new Error('it exited at once'));
    this.startedInMs = Date.now() - started;
  }

  /**
   * Converts one document: the input is staged in the instance's exchange directory (a hard link), the output
   * written there and moved to `outputPath`, the exchange emptied after. A timeout, the CPU or memory limit, an abort or
   * an output past the cap kill the instance (its whole sandbox) and throw; so does a crash. Failures LibreOffice
   * reports (a document it cannot load…) come back as the bridge's reply and leave the instance running.
   */
  async convert(conversion: InstanceConversion, guard: RequestLimits): Promise<BridgeReply> {
    if (this.ended || !this.bridge?.alive) throw new InstanceGoneError();
    if (this.busy) throw new Error('the instance is busy');
    this.busy = true;
    const exchange = join(await this.daemon.dir, EXCHANGE_DIR);
    const { inputPath, outputPath, ...request } = conversion;
    const stagedInput = join(exchange, `input-${basename(inputPath)}`);
    const stagedOutput = join(exchange, basename(outputPath));
    const watch = this.daemon.watch({ ...guard, outputPath: stagedOutput }, (reason) => void this.end(reason));
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
      // The caller learns of a kill once the whole tree is gone.
      const killed = await this.daemon.watchFailure(watch);
      if (killed) throw killed;
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
    this.daemon.killNow();
  }

  /** Ends the instance (idempotent): kills its process groups and stragglers, removes its files. */
  stop(reason: InstanceEnd = 'stopped'): Promise<void> {
    return this.end(reason);
  }

  /** The live processes of this instance (soffice launcher, oosplash, soffice.bin, the bridge). */
  async processes() {
    return this.tag ? this.daemon.processes() : [];
  }

  /** The pid of soffice.bin, the process that does the work. */
  async officePid(): Promise<number | undefined> {
    return (await this.processes()).find((p) => p.name === 'soffice.bin')?.pid;
  }

  /** Resolves (with undefined) once the instance has ended: a pending conversion must not wait for its reply. */
  private endedPromise(): Promise<undefined> {
    if (this.ended) return Promise.resolve(undefined);
    return new Promise((resolve) => this.endedWaiters.push(() => resolve(undefined)));
  }

  private end(reason: InstanceEnd): Promise<void> {
    if (this.ending) return this.ending;
    this.endReason = reason;
    for (const waiter of this.endedWaiters.splice(0)) waiter();
    this.ending = this.daemon.stop();
    this.onEnd?.(reason);
    return this.ending;
  }

  /** Unsandboxed, the UNO pipe and LibreOffice's single-instance pipe stay in /tmp when soffice is killed (a sandbox's /tmp goes with it). */
  private async removePipes(): Promise<void> {
    if (!this.tag || this.daemon.sandboxed) return;
    await Promise.all(officePipePaths(process.getuid?.() ?? 0, this.tag, this.profileUrl()).map((path) => rm(path, { force: true }).catch(() => undefined)));
  }

  /**
   * Why the instance died during a conversion: a limit or the sandbox (soffice ended by SIGSYS, SIGXCPU, or out of
   * memory) is that failure, final; anything else a crash the pool may retry once on a fresh instance.
   */
  private crashFailure(detail?: string): ConversionError | InstanceCrashedError {
    const said = this.daemon.stderr.trim();
    const diagnostics = [detail, said && `bridge and soffice: ${said}`].filter(Boolean).join('\n');
    const code = this.bridge?.officeExitCode;
    const status = code !== undefined && code < 0 ? 128 - code : (code ?? 0);
    return this.daemon.limitFailure(status, diagnostics) ?? new InstanceCrashedError(diagnostics);
  }

  private profileUrl(): string {
    return pathToFileURL(this.profileDir).href;
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
