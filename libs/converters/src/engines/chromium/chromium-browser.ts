import { copyFile, open, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { ConversionError } from '../../platform/conversion-error.js';
import type { ConversionOptions } from '../../platform/conversion-options.js';
import type { ConversionWatch, RequestLimits } from '../../platform/sandbox/conversion-watch.js';
import { engineEnvironment } from '../../platform/sandbox/engine-environment.js';
import type { EngineSandbox } from '../../platform/sandbox/engine-sandbox.js';
import { SandboxedDaemon } from '../../platform/sandbox/sandboxed-daemon.js';
import type { EngineProfile } from '../../platform/sandboxed-process.runner.js';
import type { WarmProcess } from '../../platform/warm-pool.js';
import { CHROMIUM_BINARY } from './chromium.descriptor.js';
import { DevToolsError, type DevToolsEvent, DevToolsPipe } from './devtools-pipe.js';
import { printParameters, SCREENSHOT_WIDTH, screenshotClip } from './page-setup.js';

/** Browser directories: `fileshift-chromium-<host>_<pid>-XXXXXX`, swept by the next pool when their worker is gone. */
export const CHROMIUM_PREFIX = 'fileshift-chromium-';
const START_TIMEOUT_MS = 30_000;
const STREAM_CHUNK = 1024 * 1024;

/**
 * How the browser runs. `--no-sandbox`: bubblewrap is its sandbox (Chromium's own needs the namespaces our filter
 * refuses); one process less without the zygote. Nothing that phones home, no GPU, no shared memory file system (the
 * sandbox has none), JavaScript off from the first page on (each page turns it off again through DevTools).
 */
const BROWSER_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--no-zygote',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--remote-debugging-pipe',
  '--no-first-run',
  '--no-default-browser-check',
  '--disable-breakpad',
  '--disable-crash-reporter',
  '--disable-extensions',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-default-apps',
  '--disable-sync',
  '--disable-features=Translate,MediaRouter,OptimizationHints',
  '--mute-audio',
  '--hide-scrollbars',
  '--blink-settings=scriptEnabled=false',
  // One renderer for the one tab, GPU work in the browser's process: about a quarter of the memory less.
  '--renderer-process-limit=1',
  '--in-process-gpu',
  '--disable-site-isolation-trials',
];

/** The browser reads DevTools commands on descriptor 3 and answers on 4; the sandbox's own are 3 and 4 until it runs. */
const DEVTOOLS_ON_3_AND_4 = 'exec "$0" "$@" 3<&5 4>&6 5<&- 6>&-';

/** One page to draw: the uploaded HTML, what to make of it, where, and within which limits. */
export interface PageCall extends RequestLimits {
  inputPath: string;
  to: 'pdf' | 'png' | 'jpg';
  options: ConversionOptions;
  outputPath: string;
}

/**
 * One warm Chromium in an engine sandbox of its own, driven over its DevTools pipe, one page at a time, in one tab
 * with JavaScript off whose every request is refused but the page's own file, staged in the browser's exchange
 * directory; a page that fails leaves a fresh tab to the next. A time limit, the CPU limit or an abort kill the browser
 * (its whole sandbox); so does a crash — the pool starts another.
 */
export class ChromiumBrowser implements WarmProcess {
  requests = 0;
  version = '';
  private readonly daemon: SandboxedDaemon;
  private devtools?: DevToolsPipe;
  private tab?: Promise<{ targetId: string; sessionId: string }>;

  /** `limits` and `sockets`: its descriptor's (`engineProfile`), CPU time spanning its life. */
  constructor(config: EngineProfile & { sandbox: EngineSandbox; root: string }) {
    this.daemon = new SandboxedDaemon({ ...config, prefix: CHROMIUM_PREFIX, name: 'Chromium' });
  }

  get ended(): boolean {
    return this.daemon.ended;
  }

  /** Starts the browser; resolves with its version once it answers over DevTools. */
  async start(): Promise<string> {
    const dir = await this.daemon.dir;
    // Its temporary directory is the sandbox's own /tmp: the browser puts a socket there, whose path must be short.
    const child = await this.daemon.spawn(
      {
        command: '/bin/sh',
        args: ['-c', DEVTOOLS_ON_3_AND_4, CHROMIUM_BINARY, ...BROWSER_FLAGS, `--user-data-dir=${join(dir, 'profile')}`, 'about:blank'],
        dirs: ['profile', 'exchange'],
      },
      { env: engineEnvironment(dir, '/tmp'), extraPipes: 2 },
    );
    child.stdout!.resume();
    const stdio = child.stdio as unknown as Array<Readable | Writable>;
    const devtools = (this.devtools = new DevToolsPipe(stdio[5] as Writable, stdio[6] as Readable));
    child.once('error', (error) => devtools.close(error));
    void this.daemon.exited.then(() => devtools.close(new Error('the browser ended')));
    const timer = setTimeout(() => devtools.close(new Error(`no answer within ${START_TIMEOUT_MS / 1000} s`)), START_TIMEOUT_MS);
    try {
      this.version = (await devtools.send<{ product: string }>('Browser.getVersion')).product;
      // The tab too, so that the first page waits for nothing; the window's own first tab goes (a renderer less).
      const { targetId } = await (this.tab = this.openTab(devtools));
      const { targetInfos } = await devtools.send<{ targetInfos: Array<{ targetId: string; type: string }> }>('Target.getTargets');
      for (const other of targetInfos.filter((target) => target.type === 'page' && target.targetId !== targetId)) {
        await devtools.send('Target.closeTarget', { targetId: other.targetId });
      }
      return this.version;
    } catch (error) {
      throw this.daemon.startFailure(error);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Draws one page into `call.outputPath`. */
  async render(call: PageCall): Promise<void> {
    const devtools = this.devtools;
    if (this.ended || !devtools) throw new ConversionError('provider_error', 'The browser is gone.', true);
    const id = ++this.requests;
    const page = join(await this.daemon.dir, 'exchange', `page-${id}.html`);
    await copyFile(call.inputPath, page);
    await this.daemon.prepared!.handOver(page);
    const pageUrl = pathToFileURL(page).href;
    const watch = this.daemon.watch(call);
    let unlisten = () => undefined as unknown;
    let tabDone = false;
    try {
      const { sessionId } = await (this.tab ??= this.openTab(devtools));
      const send = <T>(method: string, params: Record<string, unknown> = {}) => devtools.send<T>(method, params, sessionId);
      let pageEnded!: (error?: Error) => void;
      const loaded = new Promise<void>((resolve, reject) => (pageEnded = (error) => (error ? reject(error) : resolve())));
      unlisten = devtools.listen((event: DevToolsEvent) => {
        if (event.sessionId !== sessionId) return;
        if (event.method === 'Fetch.requestPaused') {
          const { requestId, request } = event.params as { requestId: string; request: { url: string } };
          // The page's own file only: no other file, no network, no second navigation. Aborted, not blocked: an
          // aborted navigation (a meta refresh) leaves the page as it is, a blocked one would replace it by an error page.
          if (request.url === pageUrl) void send('Fetch.continueRequest', { requestId }).catch(() => undefined);
          else void send('Fetch.failRequest', { requestId, errorReason: 'Aborted' }).catch(() => undefined);
        } else if (event.method === 'Page.loadEventFired') pageEnded();
        else if (event.method === 'Inspector.targetCrashed') pageEnded(new ConversionError('unsupported_or_corrupt_input', 'The browser crashed drawing this page; it cannot be converted.'));
      });
      if (call.to === 'pdf') await send('Emulation.clearDeviceMetricsOverride');
      else await send('Emulation.setDeviceMetricsOverride', { width: SCREENSHOT_WIDTH, height: 800, deviceScaleFactor: 1, mobile: false });
      const navigation = await send<{ errorText?: string }>('Page.navigate', { url: pageUrl });
      if (navigation.errorText) throw new ConversionError('unsupported_or_corrupt_input', `The browser could not open this page (${navigation.errorText}).`);
      // A browser that dies (killed by the watch, or crashed) never fires the load.
      await Promise.race([loaded, this.daemon.exited.then(() => Promise.reject(new Error('the browser ended')))]);
      if (call.to === 'pdf') {
        const { stream } = await send<{ stream: string }>('Page.printToPDF', printParameters(call.options));
        await this.saveStream(stream, sessionId, call.outputPath, call.maxOutputBytes);
      } else {
        const { cssContentSize } = await send<{ cssContentSize: { width: number; height: number } }>('Page.getLayoutMetrics');
        const format = call.to === 'jpg' ? { format: 'jpeg', quality: call.options.quality ?? 90 } : { format: 'png' };
        const { data } = await send<{ data: string }>('Page.captureScreenshot', { ...format, captureBeyondViewport: true, clip: screenshotClip(cssContentSize.width, cssContentSize.height) });
        const picture = Buffer.from(data, 'base64');
        if (picture.length > call.maxOutputBytes) throw new ConversionError('file_too_large', `The output would be larger than ${call.maxOutputBytes} bytes.`);
        await writeFile(call.outputPath, picture);
      }
      tabDone = true;
    } catch (error) {
      await rm(call.outputPath, { force: true });
      throw await this.failure(error as Error, watch);
    } finally {
      watch.stop();
      unlisten();
      // A page that failed leaves its tab to nobody: the next page gets a fresh one.
      if (!tabDone) await this.closeTab(devtools);
      await rm(page, { force: true });
    }
  }

  /**
   * The browser's one tab, reused page after page (a new tab costs a renderer's start): JavaScript off, every request
   * paused for the page's listener to allow or abort, crashes reported.
   */
  private async openTab(devtools: DevToolsPipe): Promise<{ targetId: string; sessionId: string }> {
    const { targetId } = await devtools.send<{ targetId: string }>('Target.createTarget', { url: 'about:blank' });
    const { sessionId } = await devtools.send<{ sessionId: string }>('Target.attachToTarget', { targetId, flatten: true });
    for (const [method, params] of [
      ['Fetch.enable', { patterns: [{ urlPattern: '*' }] }],
      ['Emulation.setScriptExecutionDisabled', { value: true }],
      ['Inspector.enable', {}],
      ['Page.enable', {}],
    ] as const) {
      await devtools.send(method, params, sessionId);
    }
    return { targetId, sessionId };
  }

  private async closeTab(devtools: DevToolsPipe): Promise<void> {
    const tab = this.tab;
    this.tab = undefined;
    if (!tab || this.ended) return;
    const { targetId } = await tab.catch(() => ({ targetId: undefined }));
    if (targetId) await devtools.send('Target.closeTarget', { targetId }).catch(() => undefined);
  }

  /** Ends the browser (idempotent): kills its sandbox, removes its directory. */
  stop(): Promise<void> {
    return this.daemon.stop();
  }

  killNow(): void {
    this.daemon.killNow();
  }

  /** Copies a DevTools stream of a page's session (a printed PDF) into a file, held to `maxBytes`. */
  private async saveStream(handle: string, sessionId: string, path: string, maxBytes: number): Promise<void> {
    const file = await open(path, 'w');
    try {
      let written = 0;
      for (;;) {
        const chunk = await this.devtools!.send<{ data: string; eof: boolean; base64Encoded?: boolean }>('IO.read', { handle, size: STREAM_CHUNK }, sessionId);
        const bytes = Buffer.from(chunk.data, chunk.base64Encoded ? 'base64' : 'utf8');
        written += bytes.length;
        if (written > maxBytes) throw new ConversionError('file_too_large', `The output would be larger than ${maxBytes} bytes.`);
        await file.write(bytes);
        if (chunk.eof) break;
      }
    } finally {
      await file.close();
      await this.devtools!.send('IO.close', { handle }, sessionId).catch(() => undefined);
    }
  }

  /** What a page's failure is: a limit the watch or the sandbox enforced, the browser's crash, or the page's own. */
  private async failure(error: Error, watch: ConversionWatch): Promise<ConversionError> {
    const killed = await this.daemon.watchFailure(watch);
    if (killed) return killed;
    if (error instanceof ConversionError) return error;
    if (this.ended) return this.daemon.crashFailure('The browser crashed on this page; it cannot be converted.');
    if (error instanceof DevToolsError) return new ConversionError('unsupported_or_corrupt_input', 'The browser could not draw this page.', false, error.message);
    return new ConversionError('provider_error', 'The browser failed.', true, error.message);
  }
}
