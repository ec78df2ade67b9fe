import type { ChildProcess } from 'node:child_process';
import { linkSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { copyFile, realpath, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { createInterface } from 'node:readline';
import { ConversionError } from '../conversion-error.js';
import type { EngineLimits } from '../engine-descriptor.js';
import { assertAbsolute } from '../sandbox/absolute-path.js';
import { engineEnvironment } from '../sandbox/engine-environment.js';
import type { EngineSandbox } from '../sandbox/engine-sandbox.js';
import type { ProcessLimits } from '../sandbox/process-limits.js';
import { SandboxedDaemon } from '../sandbox/sandboxed-daemon.js';
import { type HostReply, type HostRequest, type HostTaskContract, PROBE_TASK } from './node-host.protocol.js';
import type { WarmProcess } from '../warm-pool.js';

/** Host directories: `fileshift-node-host-<host>_<pid>-XXXXXX`, swept by the next pool when their worker is gone. */
export const NODE_HOST_PREFIX = 'fileshift-node-host-';
/** Where the host writes a request's output files, inside its directory. */
const OUTPUT_DIR = 'out';

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

/** One request as the pool hands it over: a task by name and its request, files on the worker's side, limits of the engine that asked. */
export interface HostCall<Contract extends HostTaskContract = HostTaskContract> {
  task: Contract['name'];
  request?: Contract['request'];
  /** Files on the worker's side, staged in the host's exchange directory in this order. */
  inputPaths?: readonly string[];
  outputDir?: string;
  limits?: EngineLimits;
  timeoutMs: number;
  cpuSeconds: number;
  /** What the host's processes may hold resident during the request (the engine's limit, else the host's own). */
  residentBytes?: number;
  signal: AbortSignal;
  onProgress?: (percent: number) => void;
}

export interface HostAnswer<Contract extends HostTaskContract = HostTaskContract> {
  files: string[];
  answer?: Contract['answer'];
  versions?: Record<string, string>;
}

type Pending = { id: number; resolve: (reply: Extract<HostReply, { ok: boolean }>) => void; onProgress?: (percent: number) => void };

/**
 * One Node host: Node running the host bundle in an engine sandbox of its own, one request at a time over JSON
 * lines. A request's input is staged in the host's exchange directory (a hard link) and its output moved out of its
 * output directory; both are emptied after every request. Staging uses synchronous calls: a few µs each, where the
 * thread pool's round trip costs about ten times that, more than a small image's conversion (a copy, the rare
 * fallback, is not). A time limit, the CPU limit or an abort kill the host (its whole sandbox); so does anything the
 * upload does to it — the pool starts another.
 */
export class NodeHostProcess implements WarmProcess {
  requests = 0;
  /** The hosted engines' versions, once started. */
  versions: Record<string, string> = {};
  private readonly daemon: SandboxedDaemon;
  private child?: ChildProcess;
  private nextId = 0;
  private pending?: Pending;
  busy = false;

  constructor(private readonly config: HostProcessConfig) {
    this.daemon = new SandboxedDaemon({ sandbox: config.sandbox, root: config.root, prefix: NODE_HOST_PREFIX, limits: config.limits, name: 'the Node host' });
  }

  get ended(): boolean {
    return this.daemon.ended;
  }

  /** Starts the host; resolves with the hosted engines' versions once it answers. */
  async start(): Promise<Record<string, string>> {
    const dir = await this.daemon.dir;
    const node = await realpath(process.execPath);
    const child = (this.child = await this.daemon.spawn(
      {
        command: node,
        args: [`--max-old-space-size=${this.config.heapMb}`, '--disallow-code-generation-from-strings', this.config.bundle],
        readOnlyPaths: [node, this.config.bundle, ...this.config.readOnlyPaths],
        // One output directory for the host's life, made before the sandbox hands the host's directory over to its user.
        dirs: ['exchange', OUTPUT_DIR, 'tmp'],
      },
      { env: engineEnvironment(dir, join(dir, 'tmp')), stdin: 'pipe' },
    ));
    child.stdin!.on('error', () => undefined);
    createInterface({ input: child.stdout! }).on('line', (line) => this.heard(line));
    const answer = await this.request({ task: PROBE_TASK, timeoutMs: 60_000, cpuSeconds: 60, signal: new AbortController().signal }).catch((error: unknown) => {
      throw this.daemon.startFailure(error);
    });
    this.versions = answer.versions ?? {};
    return this.versions;
  }

  /** Runs one request: stages the input, sends it, watches it, moves the output files into `outputDir`. */
  async request<Contract extends HostTaskContract>(call: HostCall<Contract>): Promise<HostAnswer<Contract>> {
    if (this.ended || !this.child) throw new ConversionError('provider_error', 'The Node host is gone.', true);
    if (this.busy) throw new Error('the Node host is busy');
    this.busy = true;
    const id = ++this.nextId;
    const dir = await this.daemon.dir;
    const exchange = join(dir, 'exchange');
    const stagedOutput = join(dir, OUTPUT_DIR);
    const watch = this.daemon.watch({ timeoutMs: call.timeoutMs, cpuSeconds: call.cpuSeconds, residentBytes: call.residentBytes, signal: call.signal });
    try {
      const inputPaths: string[] = [];
      if (call.outputDir) assertAbsolute(call.outputDir, 'a Node host request\'s output directory');
      for (const [index, path] of (call.inputPaths ?? []).entries()) {
        assertAbsolute(path, 'a Node host request\'s input');
        const staged = join(exchange, `in-${id}-${index + 1}-${basename(path)}`);
        if (!linked(path, staged)) await copyFile(path, staged);
        inputPaths.push(staged);
      }
      const request: HostRequest = { id, task: call.task, request: call.request, inputPaths, outputDir: call.outputDir ? stagedOutput : undefined, limits: call.limits };
      const reply = await Promise.race([
        new Promise<Extract<HostReply, { ok: boolean }>>((resolve) => {
          this.pending = { id, resolve, onProgress: call.onProgress };
          this.child!.stdin!.write(`${JSON.stringify(request)}\n`);
        }),
        this.daemon.exited.then(() => undefined),
      ]);
      if (watch.killedFor) throw watch.killedFor;
      if (!reply) throw await this.daemon.crashFailure('The engine crashed on this input; it cannot be converted.');
      this.requests++;
      if (!reply.ok) throw new ConversionError(reply.failureType, reply.message, reply.retryable, reply.diagnostics);
      const files = call.outputDir ? await moveAll(reply.files, call.outputDir) : [];
      return { files, answer: reply.answer as Contract['answer'], versions: reply.versions };
    } catch (error) {
      throw (await this.daemon.watchFailure(watch)) ?? error;
    } finally {
      watch.stop();
      this.pending = undefined;
      emptyDirectory(exchange);
      emptyDirectory(stagedOutput);
      this.busy = false;
    }
  }

  /** Ends the host (idempotent): kills its sandbox, removes its directory. */
  stop(): Promise<void> {
    return this.daemon.stop();
  }

  /** Synchronous last resort (process exit). */
  killNow(): void {
    this.daemon.killNow();
  }

  private heard(line: string): void {
    let message: HostReply;
    try {
      message = JSON.parse(line) as HostReply;
    } catch {
      this.daemon.noteDiagnostics(`\n(stdout) ${line}`);
      return;
    }
    const pending = this.pending;
    if (!pending || message.id !== pending.id) return;
    if ('progress' in message) pending.onProgress?.(message.progress);
    else pending.resolve(message);
  }
}

/** Moves files out of the exchange directory into `dir`, keeping their names; the moved paths, in order. */
async function moveAll(files: readonly string[], dir: string): Promise<string[]> {
  const moved: string[] = [];
  for (const file of files) {
    const target = join(dir, basename(file));
    try {
      renameSync(file, target);
    } catch {
      await copyFile(file, target);
      await rm(file, { force: true });
    }
    moved.push(target);
  }
  return moved;
}

function emptyDirectory(dir: string): void {
  let entries: string[] = [];
  try {
    entries = readdirSync(dir);
  } catch {
    return; // the host's directory is gone (it was stopped)
  }
  for (const entry of entries) rmSync(join(dir, entry), { recursive: true, force: true });
}

/** Hard-links `path` as `staged`; false when it cannot (another file system). */
function linked(path: string, staged: string): boolean {
  try {
    linkSync(path, staged);
    return true;
  } catch {
    return false;
  }
}
