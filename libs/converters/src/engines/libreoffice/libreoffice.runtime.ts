import { rm, stat } from 'node:fs/promises';
import { ConversionError } from '../../platform/conversion-error.js';
import { defaultLibreOfficePoolSize, LIBREOFFICE_DESCRIPTOR, PREPARED_FORMATS } from './libreoffice.descriptor.js';
import { type EngineAvailability, type EngineRuntime, singleOutput, type StepContext, type StepOutcome, type StepRequest } from '../../platform/engine-runtime.js';
import { type DocumentFamily, filterPlan } from './libreoffice-filters.js';
import { NodeHostPool } from '../../platform/node-host/node-host.pool.js';
import { prepareInput } from '../../platform/node-host/prepare-input.js';
import type { LibreOfficeInputTask } from './libreoffice.host-tasks.js';
import { INSTANCE_PREFIX, InstanceCrashedError, type InstanceEnd, InstanceGoneError, LibreOfficeInstance } from './libreoffice-instance.js';
import { sweepOrphanDirectories } from '../../platform/sandbox/owned-directories.js';
import { checkInstallation, type InstallationCheck } from './libreoffice-installation.js';
import { defaultEngineSandbox, type EngineSandbox } from '../../platform/sandbox/engine-sandbox.js';
import { requestLimits } from '../../platform/sandbox/conversion-watch.js';
import { engineProfile, SandboxedProcessRunner } from '../../platform/sandboxed-process.runner.js';
import type { BridgeReply } from './uno-bridge-client.js';
import { workRootOf } from '../../platform/sandbox/absolute-path.js';

export interface LibreOfficeRuntimeOptions {
  /** Warm instances, each converting one document at a time. Default: half the cores, 1 to 4. */
  size?: number;
  /** An instance is replaced after this many conversions (LibreOffice grows and leaks over time). Default 200. */
  maxConversionsPerInstance?: number;
  /** From spawning soffice to a connected bridge; a slower start counts as a failed one. Default 60 s. */
  startTimeoutMs?: number;
  /** The worker's engine sandbox (default: this machine's, required); each instance runs in a sandbox of it. */
  sandbox?: EngineSandbox | Promise<EngineSandbox>;
  /** Where HTML and RTF inputs are read before loading (default: a pool of its own). */
  nodeHost?: NodeHostPool;
  /** The soffice launcher; default Debian's /usr/lib/libreoffice/program/soffice, else soffice on PATH. */
  soffice?: string;
  /** The Python with `uno`; default Debian's /usr/bin/python3. */
  python?: string;
  /**
   * Instance directories (profile, HOME, TMPDIR, exchange) are made under this one; default the OS temp dir. On the
   * file system of the jobs' scratch directories, an input is staged by a hard link instead of a copy.
   */
  workRoot?: string;
  /** Pool events (start, restarts, kills, sandbox); default console. */
  log?: (level: 'info' | 'warn', message: string) => void;
  /** Hears each instance the pool replaces, and why (metrics); must not throw. */
  onInstanceReplaced?: (reason: InstanceReplacement) => void;
}

/** Why a running pool replaced an instance: retired after its conversions, crashed, or killed by a conversion's limits. */
export type InstanceReplacement = Exclude<InstanceEnd, 'stopped' | 'start_failed'>;

export const DEFAULT_MAX_CONVERSIONS_PER_INSTANCE = 200;
export const DEFAULT_START_TIMEOUT_MS = 60_000;

/** A conversion that found its instance gone before it touched the document tries another this often. */
const MAX_ATTEMPTS = 3;
/**
 * A document that crashed its instance is tried once more on a fresh one (the crash may have been the
 * instance's, not the document's); a second crash is the document's: it fails as unreadable, not
 * retryable, so neither a fallback plan nor a job retry feeds it to another instance.
 */
const MAX_CRASHES_PER_DOCUMENT = 2;
const MAX_RETRY_DELAY_MS = 30_000;

const FAMILY_WORDS: Record<DocumentFamily, string> = { text: 'text document', sheet: 'spreadsheet', slide: 'presentation' };
interface Environment {
  check: InstallationCheck;
  sandbox: EngineSandbox;
}

interface Waiter {
  resolve: (instance: LibreOfficeInstance) => void;
  reject: (error: Error) => void;
}

const defaultLog = (level: 'info' | 'warn', message: string) => (level === 'warn' ? console.warn : console.info)(`[libreoffice] ${message}`);

/**
 * LibreOffice as a supervised warm pool: `size` soffice instances, each with a fresh profile, driven over UNO
 * by our bridge, one document at a time each. Conversions wait their turn in order. An instance is replaced
 * after `maxConversionsPerInstance` conversions, when it crashes, and when a conversion times out, is
 * aborted or writes past the output cap (its whole process tree is killed first). Macros never run and
 * nothing remote is fetched (see libreoffice-profile.ts and uno-bridge.py); each instance runs in a sandbox of its own.
 */
export class LibreOfficeRuntime implements EngineRuntime {
  readonly descriptor = LIBREOFFICE_DESCRIPTOR;
  readonly size: number;
  readonly maxConversionsPerInstance: number;

  private readonly instances = new Set<LibreOfficeInstance>();
  private idle: LibreOfficeInstance[] = [];
  private waiters: Waiter[] = [];
  /** Spawns decided but not yet registered (the environment is being checked). */
  private pendingSpawns = 0;
  private starting = new Set<Promise<void>>();
  private running = false;
  private environmentCheck?: Promise<Environment>;
  private startFailures = 0;
  private lastStartFailure?: ConversionError;
  private retryTimer?: NodeJS.Timeout;
  private readonly log: (level: 'info' | 'warn', message: string) => void;
  private readonly nodeHost: NodeHostPool;
  /** The Node host it made itself (none was given), which it stops with the pool. */
  private ownNodeHost?: NodeHostPool;
  // Should the worker exit without stop(), its instances go with it (the bridges also do this when orphaned).
  private readonly exitHook = () => {
    for (const instance of this.instances) instance.killNow();
  };

  /** Where its processes' directories are made (checked absolute at construction). */
  private readonly workRoot: string;

  constructor(private readonly options: LibreOfficeRuntimeOptions = {}) {
    this.workRoot = workRootOf(options.workRoot);
    this.size = options.size ?? defaultLibreOfficePoolSize();
    this.maxConversionsPerInstance = options.maxConversionsPerInstance ?? DEFAULT_MAX_CONVERSIONS_PER_INSTANCE;
    if (!Number.isInteger(this.size) || this.size < 1) throw new Error(`LibreOffice pool size must be a positive integer, not ${this.size}`);
    if (!Number.isInteger(this.maxConversionsPerInstance) || this.maxConversionsPerInstance < 1) {
      throw new Error(`maxConversionsPerInstance must be a positive integer, not ${this.maxConversionsPerInstance}`);
    }
    this.log = options.log ?? defaultLog;
    this.nodeHost = options.nodeHost ?? (this.ownNodeHost = new NodeHostPool({ sandbox: options.sandbox, workRoot: options.workRoot, size: 1 }));
  }

  /** soffice and Python UNO present (checked in the sandbox); starts no instance (about 0.2 s). */
  async probe(): Promise<EngineAvailability> {
    const { check } = await this.environment(true);
    if (!check.ok) return { available: false, problem: check.problem };
    return { available: true, version: check.installation.version };
  }

  /**
   * Warms the pool in the background: returns at once a promise that settles (never rejects) when every
   * instance has started or failed to. Conversions asked for meanwhile wait for the first ready instance.
   */
  start(): Promise<void> {
    if (!this.running) {
      this.running = true;
      this.startFailures = 0;
      this.lastStartFailure = undefined;
      process.on('exit', this.exitHook);
      // What the instances of a killed worker left: their processes died with it, their directories did not.
      void sweepOrphanDirectories(this.instanceRoot(), INSTANCE_PREFIX).catch(() => undefined);
      void this.environment().then(({ sandbox }) =>
        this.log('info', `pool of ${this.size}, each instance replaced after ${this.maxConversionsPerInstance} conversions; ${sandbox.sandboxed ? 'each instance in a sandbox of its own' : 'not sandboxed'}`),
      );
    }
    this.fill();
    return Promise.allSettled([...this.starting]).then(() => undefined);
  }

  /** Kills every instance (whole process trees) and removes their directories; waiting conversions fail. */
  async stop(): Promise<void> {
    this.running = false;
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    const stopping = new ConversionError('provider_error', 'The document engine is stopping.', true);
    for (const waiter of this.waiters.splice(0)) waiter.reject(stopping);
    this.idle = [];
    // Instances still starting are killed too (their start fails at once), then whatever registered meanwhile.
    await Promise.all([...this.instances].map((instance) => instance.stop('stopped')));
    await Promise.allSettled([...this.starting]);
    await Promise.all([...this.instances].map((instance) => instance.stop('stopped')));
    await this.ownNodeHost?.stop();
    process.off('exit', this.exitHook);
  }

  async convert(request: StepRequest, context: StepContext): Promise<StepOutcome> {
    const plan = filterPlan(request.from, request.to, request.options);
    if (!plan) throw new ConversionError('unsupported_output_format', `This engine does not convert ${request.from} to ${request.to}.`);
    if (context.signal.aborted) throw cancelled();
    const { limits } = context;
    const outputPath = singleOutput(request.outputDir, request.to);
    const maxPages = request.to === 'pdf' ? limits.maxPages : undefined;

    // HTML and RTF are read (and perhaps cleaned) in a Node host first; the upload is never parsed in the worker.
    const inputPath = PREPARED_FORMATS.has(request.from) ? ((await prepareInput<LibreOfficeInputTask>(this.nodeHost, 'libreoffice-input', request, context, request.outputDir)) ?? request.inputPath) : request.inputPath;
    let crashes = 0;
    for (let attempt = 1; ; attempt++) {
      const instance = await this.acquire(context.signal);
      try {
        const reply = await instance.convert(
          { inputPath, outputPath, ...plan, ...(maxPages !== undefined ? { maxPages } : {}) },
          requestLimits(limits, context.signal),
        );
        if (!reply.ok) throw failureOf(reply, request, plan.family, maxPages);
        break;
      } catch (error) {
        await rm(outputPath, { force: true });
        if (error instanceof InstanceCrashedError) {
          if (++crashes < MAX_CRASHES_PER_DOCUMENT) continue;
          throw new ConversionError('unsupported_or_corrupt_input', `The document engine crashed on this ${FAMILY_WORDS[plan.family]} twice; it cannot be converted.`, false, error.diagnostics);
        }
        if (error instanceof InstanceGoneError) {
          if (attempt < MAX_ATTEMPTS) continue;
          throw new ConversionError('provider_error', 'The document engine is not available.', true, error.message);
        }
        throw error;
      } finally {
        this.release(instance);
      }
    }

    const outputBytes = await stat(outputPath).then((s) => s.size, () => -1);
    if (outputBytes < 0) throw new ConversionError('unsupported_or_corrupt_input', `The document could not be converted to ${request.to}.`, false, 'no output file');
    if (outputBytes > limits.maxOutputBytes) {
      await rm(outputPath, { force: true });
      throw new ConversionError('file_too_large', `The output would be larger than ${limits.maxOutputBytes} bytes.`);
    }
    context.onProgress?.(100);
    return { files: [outputPath] };
  }

  /** Diagnostics (tests, a health endpoint): the pool's instances and their processes. */
  async inspect() {
    const instances = await Promise.all(
      [...this.instances].map(async (instance) => ({
        tag: instance.tag,
        profileDir: instance.profileDir,
        conversions: instance.conversions,
        idle: instance.idle,
        /** Connected to its bridge: a starting soffice may still restart itself (a new soffice.bin pid). */
        ready: instance.version !== '',
        officePid: await instance.officePid(),
        processes: await instance.processes(),
      })),
    );
    const { sandbox } = await this.environment();
    return { size: this.size, sandboxed: sandbox.sandboxed, waiting: this.waiters.length, instances };
  }

  private environment(refresh = false): Promise<Environment> {
    if (refresh || !this.environmentCheck) {
      this.environmentCheck = (async () => {
        const sandbox = await (this.options.sandbox ?? defaultEngineSandbox());
        const check = await checkInstallation({ soffice: this.options.soffice, python: this.options.python }, new SandboxedProcessRunner(engineProfile(LIBREOFFICE_DESCRIPTOR), sandbox));
        return { check, sandbox };
      })();
    }
    return this.environmentCheck;
  }

  private instanceRoot(): string {
    return this.workRoot;
  }

  /** Starts instances until the pool has `size` (running or starting). */
  private fill(): void {
    while (this.running && !this.retryTimer && this.instances.size + this.pendingSpawns < this.size) {
      const spawning = this.spawn();
      this.starting.add(spawning);
      void spawning.finally(() => this.starting.delete(spawning));
    }
  }

  private async spawn(): Promise<void> {
    this.pendingSpawns++;
    let instance: LibreOfficeInstance | undefined;
    let failure: Error | undefined;
    try {
      const { check, sandbox } = await this.environment();
      if (!check.ok) failure = new Error(check.problem);
      else if (this.running) {
        const profile = engineProfile(LIBREOFFICE_DESCRIPTOR);
        instance = new LibreOfficeInstance({
          soffice: check.installation.soffice,
          python: check.installation.python,
          sandbox,
          // CPU time is watched per conversion; the processes' own limit spans the instance's life.
          ...profile,
          limits: { ...profile.limits, cpuSeconds: profile.limits.cpuSeconds * (this.maxConversionsPerInstance + 1) },
          root: this.instanceRoot(),
          startTimeoutMs: this.options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS,
        });
        const registered = instance;
        this.instances.add(registered);
        registered.onEnd = (reason) => this.ended(registered, reason);
      }
    } catch (error) {
      failure = error as Error;
    } finally {
      this.pendingSpawns--;
    }
    if (failure) return this.startFailed(failure);
    if (!instance) return;
    try {
      await instance.start();
    } catch (error) {
      if (this.running) this.startFailed(error as Error);
      return;
    }
    if (!this.running) {
      await instance.stop('stopped');
      return;
    }
    this.startFailures = 0;
    this.lastStartFailure = undefined;
    this.log('info', `instance ${instance.tag} ready in ${instance.startedInMs} ms (${instance.version})`);
    this.offer(instance);
  }

  private startFailed(error: Error): void {
    this.startFailures++;
    this.lastStartFailure = new ConversionError('provider_error', 'The document engine could not start.', true, error.message);
    const delay = Math.min(MAX_RETRY_DELAY_MS, 1000 * 2 ** (this.startFailures - 1));
    this.log('warn', `an instance failed to start (${this.startFailures} in a row; next try in ${delay} ms): ${error.message}`);
    // With nothing running, the conversions waiting would wait for the retry: they fail now (retryable).
    if (this.failingFast()) {
      for (const waiter of this.waiters.splice(0)) waiter.reject(this.lastStartFailure);
    }
    if (this.running && !this.retryTimer) {
      this.retryTimer = setTimeout(() => {
        this.retryTimer = undefined;
        this.fill();
      }, delay);
      this.retryTimer.unref();
    }
  }

  private ended(instance: LibreOfficeInstance, reason: InstanceEnd): void {
    this.instances.delete(instance);
    this.idle = this.idle.filter((candidate) => candidate !== instance);
    if (reason === 'crashed') this.log('warn', `instance ${instance.tag} crashed after ${instance.conversions} conversions; replacing it`);
    else if (reason === 'timeout' || reason === 'cancelled' || reason === 'output_too_large') this.log('warn', `instance ${instance.tag} killed (${reason}); replacing it`);
    else if (reason === 'retired') this.log('info', `instance ${instance.tag} retired after ${instance.conversions} conversions; replacing it`);
    if (this.running && reason !== 'stopped' && reason !== 'start_failed') this.options.onInstanceReplaced?.(reason);
    if (reason !== 'start_failed') this.fill();
  }

  /** The last start failed and nothing runs or is starting: a conversion would only wait for the next retry. */
  private failingFast(): boolean {
    return this.lastStartFailure !== undefined && this.pendingSpawns === 0 && ![...this.instances].some((instance) => !instance.ended);
  }

  /** The first idle instance, or a place in the queue (first come, first served). */
  private acquire(signal: AbortSignal): Promise<LibreOfficeInstance> {
    if (!this.running) void this.start();
    if (signal.aborted) return Promise.reject(cancelled());
    const instance = this.idle.shift();
    if (instance) return Promise.resolve(instance);
    if (this.failingFast()) return Promise.reject(this.lastStartFailure);
    return new Promise<LibreOfficeInstance>((resolve, reject) => {
      const onAbort = () => {
        this.waiters = this.waiters.filter((waiter) => waiter !== entry);
        reject(cancelled());
      };
      const entry: Waiter = {
        resolve: (ready) => {
          signal.removeEventListener('abort', onAbort);
          resolve(ready);
        },
        reject: (error) => {
          signal.removeEventListener('abort', onAbort);
          reject(error);
        },
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(entry);
    });
  }

  private offer(instance: LibreOfficeInstance): void {
    if (instance.ended || !this.running) return;
    const waiter = this.waiters.shift();
    if (waiter) waiter.resolve(instance);
    else this.idle.push(instance);
  }

  private release(instance: LibreOfficeInstance): void {
    if (instance.ended) return;
    if (instance.conversions >= this.maxConversionsPerInstance) void instance.stop('retired');
    else this.offer(instance);
  }
}

const cancelled = () => new ConversionError('unknown', 'The conversion was cancelled.', true);

/** A failure the bridge reported, as the spec's failure type with a message safe to show (no paths). */
function failureOf(reply: Extract<BridgeReply, { ok: false }>, request: StepRequest, family: DocumentFamily, maxPages: number | undefined): ConversionError {
  const diagnostics = `${reply.kind}: ${reply.error}`;
  switch (reply.kind) {
    case 'load':
      return new ConversionError('unsupported_or_corrupt_input', `The input could not be read as a ${request.from} file.`, false, diagnostics);
    case 'family':
      return new ConversionError('unsupported_or_corrupt_input', `The input is not a ${FAMILY_WORDS[family]}.`, false, diagnostics);
    case 'format':
      return new ConversionError('unsupported_or_corrupt_input', `The input is not a readable ${request.from} file.`, false, diagnostics);
    case 'too_many_pages':
      return new ConversionError('file_too_large', `The document would make ${reply.pages ?? 'more'} pages; at most ${maxPages} are converted.`, false, diagnostics);
    case 'no_pages':
      return new ConversionError('unsupported_or_corrupt_input', `The document has ${reply.pages ?? 'fewer'} pages: none of the pages asked for exists.`, false, diagnostics);
    case 'store':
      return new ConversionError('unsupported_or_corrupt_input', `The document could not be converted to ${request.to}.`, false, diagnostics);
    default:
      return new ConversionError('unknown', 'The conversion failed.', false, diagnostics);
  }
}
