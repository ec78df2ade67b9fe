import { ConversionError } from '../../platform/conversion-error.js';
import { probeVersions } from '../../platform/engine-probe.js';
import { type EngineAvailability, type EngineRuntime, singleOutput, type StepContext, type StepOutcome, type StepRequest } from '../../platform/engine-runtime.js';
import { defaultEngineSandbox, type EngineSandbox } from '../../platform/sandbox/engine-sandbox.js';
import { sweepOrphanDirectories } from '../../platform/sandbox/owned-directories.js';
import { requestLimits } from '../../platform/sandbox/conversion-watch.js';
import { engineProfile, SandboxedProcessRunner } from '../../platform/sandboxed-process.runner.js';
import { WarmPool } from '../../platform/warm-pool.js';
import { ChromiumBrowser, CHROMIUM_PREFIX, type PageCall } from './chromium-browser.js';
import { CHROMIUM_BINARY, CHROMIUM_DESCRIPTOR } from './chromium.descriptor.js';
import { workRootOf } from '../../platform/sandbox/absolute-path.js';

export const DEFAULT_PAGES_PER_BROWSER = 200;
/** A browser lives for many pages: its processes' CPU limit spans a day; each page's own is watched. */
const BROWSER_LIFETIME_MS = 24 * 3600_000;

export interface ChromiumRuntimeOptions {
  /** The worker's engine sandbox (default: this machine's, required). */
  sandbox?: EngineSandbox | Promise<EngineSandbox>;
  /** The worker's runner, for the probe (default: one in `sandbox`). */
  runner?: SandboxedProcessRunner;
  /** Browser directories are made under this one (the jobs' scratch root). */
  workRoot?: string;
  /** Browsers running at once, each drawing one page at a time (default 1; each holds about 350–480 MB). */
  size?: number;
  /** A browser is replaced after this many pages (default 200). */
  pagesPerBrowser?: number;
}

/** HTML through warm headless Chromium (see chromium.descriptor.ts and chromium-browser.ts). */
export class ChromiumRuntime implements EngineRuntime {
  readonly descriptor = CHROMIUM_DESCRIPTOR;
  private readonly pool: WarmPool<ChromiumBrowser>;
  private readonly sandbox: Promise<EngineSandbox>;

  /** Where its processes' directories are made (checked absolute at construction). */
  private readonly workRoot: string;

  constructor(private readonly options: ChromiumRuntimeOptions = {}) {
    this.workRoot = workRootOf(options.workRoot);
    this.sandbox = Promise.resolve(options.sandbox ?? defaultEngineSandbox());
    this.pool = new WarmPool({
      size: options.size ?? 1,
      maxRequests: options.pagesPerBrowser ?? DEFAULT_PAGES_PER_BROWSER,
      spawn: () => this.spawn(),
      // What the browsers of a killed worker left: their processes died with it, their directories did not.
      onBegin: () => void sweepOrphanDirectories(this.workRoot, CHROMIUM_PREFIX).catch(() => undefined),
      stopping: () => new ConversionError('provider_error', 'The browser is stopping.', true),
    });
  }

  /** Chromium answers its version in the sandbox, as every engine's probe: a worker that does not serve documents starts no browser. */
  probe(): Promise<EngineAvailability> {
    const runner = (this.options.runner ?? new SandboxedProcessRunner(undefined, this.sandbox)).forEngine(this.descriptor);
    return probeVersions(runner, [{ command: CHROMIUM_BINARY, args: ['--version'] }], this.descriptor.debianPackages);
  }

  /** Starts the browsers in the background: a page never waits for a browser to start, unless one died. */
  start(): Promise<void> {
    return this.pool.start();
  }

  stop(): Promise<void> {
    return this.pool.stop();
  }

  async convert(request: StepRequest, context: StepContext): Promise<StepOutcome> {
    const to = request.to;
    if (request.from !== 'html' || (to !== 'pdf' && to !== 'png' && to !== 'jpg')) throw new ConversionError('unsupported_output_format', `This engine does not write ${to} from ${request.from}.`);
    context.signal.throwIfAborted();
    const call: PageCall = { inputPath: request.inputPath, to, options: request.options, outputPath: singleOutput(request.outputDir, to), ...requestLimits(context.limits, context.signal) };
    await this.pool.with((browser) => browser.render(call));
    context.onProgress?.(100);
    return { files: [call.outputPath] };
  }


  private async spawn(): Promise<ChromiumBrowser> {
    try {
      const profile = engineProfile({ ...this.descriptor, limits: { ...this.descriptor.limits, timeoutMs: BROWSER_LIFETIME_MS } });
      const browser = new ChromiumBrowser({ ...profile, sandbox: await this.sandbox, root: this.workRoot });
      await browser.start();
      return browser;
    } catch (error) {
      throw new ConversionError('provider_error', 'The browser could not start.', true, (error as Error).message);
    }
  }
}
