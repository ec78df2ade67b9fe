import { stat } from 'node:fs/promises';
import { ConversionError } from '../conversion-error.js';
import type { EngineLimits } from '../engine-descriptor.js';
import { processLimitsOf } from './process-limits.js';
import type { ProcessTreeUsage } from './process-tree-usage.js';

/** Why a watch ended a conversion in a warm engine. */
export type WatchEnd = 'timeout' | 'cancelled' | 'output_too_large' | 'memory';

export interface WatchOptions {
  timeoutMs: number;
  cpuSeconds: number;
  /** The caller's; none for a run nobody cancels (an engine's probe). */
  signal?: AbortSignal;
  /** The warm engine's processes. */
  usage?: ProcessTreeUsage;
  /** What they may hold resident all together (see EngineLimits.residentBytes). */
  residentBytes?: number;
  /** The output, held to `maxOutputBytes` while it is written. */
  outputPath?: string;
  maxOutputBytes?: number;
  /** Kills the engine (its whole sandbox); called once, with the failure the conversion ends with. */
  onKill: (reason: WatchEnd, error: ConversionError) => void;
}

/** The limits one request to a warm engine is watched to, and its caller's signal. */
export interface RequestLimits {
  timeoutMs: number;
  cpuSeconds: number;
  /** What the engine's processes may hold resident while it serves the request. */
  residentBytes: number;
  maxOutputBytes: number;
  signal: AbortSignal;
}

/** Pure: a request's limits from its step's engine limits (its descriptor's, or a caller's lower ones). */
export function requestLimits(limits: EngineLimits, signal: AbortSignal): RequestLimits {
  const { cpuSeconds, residentBytes } = processLimitsOf(limits);
  return { timeoutMs: limits.timeoutMs, cpuSeconds, residentBytes, maxOutputBytes: limits.maxOutputBytes, signal };
}

const OUTPUT_POLL_MS = 100;
const CPU_POLL_EVERY = 5;
/** The tree is walked again this often (in CPU polls), for an engine that started a process meanwhile. */
const REDISCOVER_EVERY = 4;
/** setTimeout fires at once beyond 2^31 - 1 ms. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * The limits of one conversion in a warm engine (LibreOffice, the Node host, the browser), whose processes outlive
 * it: its time, its CPU time (counted from its start), the memory the engine holds, its caller's abort, its output's
 * size. The first one passed kills the engine; `killedFor` is then the conversion's failure.
 */
export class ConversionWatch {
  killedFor?: ConversionError;
  private readonly timer: NodeJS.Timeout;
  private readonly poller: NodeJS.Timeout;
  private readonly onAbort = () => this.kill('cancelled', new ConversionError('unknown', 'The conversion was cancelled.', true));

  constructor(private readonly options: WatchOptions) {
    this.timer = setTimeout(
      () => this.kill('timeout', new ConversionError('timeout', `The conversion took longer than ${Math.max(1, Math.round(options.timeoutMs / 1000))} s.`, true)),
      Math.min(options.timeoutMs, MAX_TIMER_MS),
    );
    options.signal?.addEventListener('abort', this.onAbort, { once: true });
    const cpuAtStart = options.usage?.seconds();
    cpuAtStart?.catch(() => undefined);
    let polls = 0;
    this.poller = setInterval(() => {
      const { outputPath, maxOutputBytes } = options;
      if (outputPath && maxOutputBytes !== undefined) {
        void stat(outputPath).then(
          (s) => {
            if (s.size > maxOutputBytes) this.kill('output_too_large', new ConversionError('file_too_large', `The output grew past ${maxOutputBytes} bytes.`));
          },
          () => undefined,
        );
      }
      const { usage, residentBytes } = options;
      if (usage && residentBytes !== undefined) {
        void usage.residentBytes().then((bytes) => {
          if (bytes > residentBytes) this.kill('memory', new ConversionError('file_too_large', `The conversion needed more than ${Math.round(residentBytes / 1024 ** 2)} MB of memory.`));
        }, () => undefined);
      }
      if (usage && cpuAtStart && ++polls % CPU_POLL_EVERY === 0) {
        if ((polls / CPU_POLL_EVERY) % REDISCOVER_EVERY === 0) usage.rediscover();
        void Promise.all([cpuAtStart, usage.seconds()]).then(([start, now]) => {
          if (now - start > options.cpuSeconds) this.kill('timeout', new ConversionError('timeout', `The conversion used more than ${options.cpuSeconds} s of processor time.`));
        }, () => undefined);
      }
    }, OUTPUT_POLL_MS);
    if (options.signal?.aborted) this.onAbort();
  }

  stop(): void {
    clearTimeout(this.timer);
    clearInterval(this.poller);
    this.options.signal?.removeEventListener('abort', this.onAbort);
  }

  private kill(reason: WatchEnd, error: ConversionError): void {
    if (this.killedFor) return;
    this.killedFor = error;
    this.options.onKill(reason, error);
  }
}
