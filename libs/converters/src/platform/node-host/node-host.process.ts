import type { ChildProcess } from 'node:child_process';
import { copyFile, link, mkdir, readdir, realpath, rename, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { createInterface } from 'node:readline';
import { ConversionError } from '../conversion-error.js';
import type { EngineLimits } from '../engine-descriptor.js';
import { engineEnvironment } from '../sandbox/engine-environment.js';
import type { EngineSandbox, PreparedCommand } from '../sandbox/engine-sandbox.js';
import { limitFailure } from '../sandbox/limit-failure.js';
import { ownedDirectory } from '../sandbox/owned-directories.js';
import type { ProcessLimits } from '../sandbox/process-limits.js';
import { ConversionWatch } from '../sandbox/conversion-watch.js';
import { ProcessTreeCpu } from '../sandbox/process-tree-cpu.js';
import { spawnWrapped } from '../sandbox/spawn-wrapped.js';
import type { HostReply, HostRequest, HostTask } from './node-host.protocol.js';
import type { WarmProcess } from '../warm-pool.js';

/** Host directories: `fileshift-node-host-<host>_<pid>-XXXXXX`, swept by the next pool when their worker is gone. */
export const NODE_HOST_PREFIX = 'fileshift-node-host-';
const STDERR_TAIL = 4096;

export interface HostProcessConfig {
  sandbox: EngineSandbox;
  /** The host makes its directory (HOME, TMPDIR, exchange) under this one and removes it when it ends. */
  root: string;
  /** The bundled host program and what it needs to run, bound read-only: Node itself, sharp and its libraries. */
  bundle: string;
  readOnlyPaths: readonly string[];
  /** Its processes' limits (CPU time spans its life; a request's own is watched per request). */
  limits: ProcessLimits;
  /** V8's heap, below the address-space limit: a JavaScript parser that runs away fails as out of memory. */
  heapMb: number;
}

/** One request as the pool hands it over: files on the worker's side, limits of the engine that asked. */
export interface HostCall {
  task: HostTask | { kind: 'probe' };
  /** Files on the worker's side, staged in the host's exchange directory in this order. */
  inputPaths?: readonly string[];
  outputDir?: string;
  limits?: EngineLimits;
  timeoutMs: number;
  cpuSeconds: number;
  signal: AbortSignal;
  onProgress?: (percent: number) => void;
}

export interface HostAnswer {
  files: string[];
  frames?: number;
  versions?: Record<string, string>;
}

type Pending = { id: number; resolve: (reply: Extract<HostReply, { ok: boolean }>) => void; onProgress?: (percent: number) => void };

/**
 * One Node host: Node running the host bundle in an engine sandbox of its own, one request at a time over JSON
 * lines. A request's input is staged in the host's exchange directory (a hard link) and its output moved out of it;
 * the exchange is emptied after every request. A time limit, the CPU limit or an abort kill the host (its whole
 * sandbox); so does anything the upload does to it — the pool starts another.
 */
export class NodeHostProcess implements WarmProcess {
  readonly dir: Promise<string>;
  requests = 0;
  /** The hosted engines' versions, once started. */
  versions: Record<string, string> = {};
  private child?: ChildProcess;
  private cpu?: ProcessTreeCpu;
  private prepared?: PreparedCommand;
  private stderr = '';
  private nextId = 0;
  private pending?: Pending;
  private exitStatus?: number;
  private readonly exited: Promise<void>;
  private markExited!: () => void;
  private ending?: Promise<void>;
  busy = false;

  constructor(private readonly config: HostProcessConfig) {
    this.dir = ownedDirectory(config.root, NODE_HOST_PREFIX);
    this.dir.catch(() => undefined);
    this.exited = new Promise((resolve) => (this.markExited = resolve));
  }

  get ended(): boolean {
    return this.ending !== undefined || this.exitStatus !== undefined;
  }

  /** Starts the host; resolves with the hosted engines' versions once it answers. */
  async start(): Promise<Record<string, string>> {
    const dir = await this.dir;
    await mkdir(join(dir, 'exchange'));
    await mkdir(join(dir, 'tmp'));
    const node = await realpath(process.execPath);
    this.prepared = await this.config.sandbox.prepare({
      command: node,
      args: [`--max-old-space-size=${this.config.heapMb}`, '--disallow-code-generation-from-strings', this.config.bundle],
      writableDirs: [dir],
      readOnlyPaths: [node, this.config.bundle, ...this.config.readOnlyPaths],
      cwd: dir,
      limits: this.config.limits,
      sockets: 'unix-only',
    });
    // Stopped while its sandbox was being prepared: nothing may be started after the stop.
    if (this.ending) {
      this.prepared.release();
      throw new Error('the Node host was stopped while starting');
    }
    const { child } = spawnWrapped(this.prepared.wrapped, { cwd: dir, env: engineEnvironment(dir, join(dir, 'tmp')), stdin: 'pipe' });
    this.child = child;
    if (child.pid) this.cpu = new ProcessTreeCpu(child.pid);
    child.stdin!.on('error', () => undefined);
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      this.stderr = (this.stderr + chunk).slice(-STDERR_TAIL);
    });
    child.once('close', (code, signal) => {
      this.exitStatus = code ?? (signal ? 128 : 1);
      this.markExited();
    });
    child.once('error', () => {
      this.exitStatus ??= 1;
      this.markExited();
    });
    createInterface({ input: child.stdout! }).on('line', (line) => this.heard(line));
    const answer = await this.request({ task: { kind: 'probe' }, timeoutMs: 60_000, cpuSeconds: 60, signal: new AbortController().signal }).catch((error: unknown) => {
      void this.stop();
      throw new Error(`the Node host did not start: ${(error as Error).message}${this.stderr ? `\n${this.stderr.trim()}` : ''}`);
    });
    this.versions = answer.versions ?? {};
    return this.versions;
  }

  /** Runs one request: stages the input, sends it, watches it, moves the output files into `outputDir`. */
  async request(call: HostCall): Promise<HostAnswer> {
    if (this.ended || !this.child) throw new ConversionError('provider_error', 'The Node host is gone.', true);
    if (this.busy) throw new Error('the Node host is busy');
    this.busy = true;
    const id = ++this.nextId;
    const exchange = join(await this.dir, 'exchange');
    const stagedOutput = join(exchange, `out-${id}`);
    const watch = new ConversionWatch({ timeoutMs: call.timeoutMs, cpuSeconds: call.cpuSeconds, signal: call.signal, cpu: this.cpu, onKill: () => void this.stop() });
    try {
      const inputPaths: string[] = [];
      for (const [index, path] of (call.inputPaths ?? []).entries()) {
        const staged = join(exchange, `in-${id}-${index + 1}-${basename(path)}`);
        await link(path, staged).catch(() => copyFile(path, staged));
        inputPaths.push(staged);
      }
      if (call.outputDir) {
        await mkdir(stagedOutput);
        await this.prepared!.handOver(stagedOutput);
      }
      const request: HostRequest = { id, task: call.task, inputPaths, outputDir: call.outputDir ? stagedOutput : undefined, limits: call.limits };
      const reply = await Promise.race([
        new Promise<Extract<HostReply, { ok: boolean }>>((resolve) => {
          this.pending = { id, resolve, onProgress: call.onProgress };
          this.child!.stdin!.write(`${JSON.stringify(request)}\n`);
        }),
        this.exited.then(() => undefined),
      ]);
      if (watch.killedFor) throw watch.killedFor;
      if (!reply) throw this.crashFailure();
      this.requests++;
      if (!reply.ok) throw new ConversionError(reply.failureType, reply.message, reply.retryable, reply.diagnostics);
      const files = call.outputDir ? await moveAll(reply.files, call.outputDir) : [];
      return { files, frames: reply.frames, versions: reply.versions };
    } catch (error) {
      if (watch.killedFor) {
        watch.killedFor.diagnostics = this.stderr;
        await this.ending;
        throw watch.killedFor;
      }
      throw error;
    } finally {
      watch.stop();
      this.pending = undefined;
      await emptyDirectory(exchange);
      this.busy = false;
    }
  }

  /** Ends the host (idempotent): kills its sandbox, removes its directory. */
  stop(): Promise<void> {
    this.ending ??= (async () => {
      try {
        if (this.child?.pid) process.kill(-this.child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
      if (this.child) await Promise.race([this.exited, new Promise((resolve) => setTimeout(resolve, 2000))]);
      this.prepared?.release();
      await rm(await this.dir.catch(() => ''), { recursive: true, force: true }).catch(() => undefined);
    })();
    return this.ending;
  }

  /** Synchronous last resort (process exit). */
  killNow(): void {
    try {
      if (this.child?.pid) process.kill(-this.child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }

  private heard(line: string): void {
    let message: HostReply;
    try {
      message = JSON.parse(line) as HostReply;
    } catch {
      this.stderr = (this.stderr + `\n(stdout) ${line}`).slice(-STDERR_TAIL);
      return;
    }
    const pending = this.pending;
    if (!pending || message.id !== pending.id) return;
    if ('progress' in message) pending.onProgress?.(message.progress);
    else pending.resolve(message);
  }

  /** The host died during a request: a limit or the sandbox is that failure; anything else, the input crashed it. */
  private crashFailure(): ConversionError {
    return (
      limitFailure(this.exitStatus ?? 1, this.stderr, this.config.limits) ??
      new ConversionError('unsupported_or_corrupt_input', 'The engine crashed on this input; it cannot be converted.', false, this.stderr)
    );
  }
}

/** Moves files out of the exchange directory into `dir`, keeping their names; the moved paths, in order. */
async function moveAll(files: readonly string[], dir: string): Promise<string[]> {
  const moved: string[] = [];
  for (const file of files) {
    const target = join(dir, basename(file));
    await rename(file, target).catch(async () => {
      await copyFile(file, target);
      await rm(file, { force: true });
    });
    moved.push(target);
  }
  return moved;
}

async function emptyDirectory(dir: string): Promise<void> {
  const entries = await readdir(dir).catch(() => [] as string[]);
  await Promise.all(entries.map((entry) => rm(join(dir, entry), { recursive: true, force: true })));
}
