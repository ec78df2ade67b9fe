import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

export const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

/** A built service running as its own process; `stop()` ends it and removes the data directory it made. */
export interface BuiltService {
  child: ChildProcess;
  baseUrl: string;
  dataDir: string;
  stop(): Promise<void>;
}

/** Polls `check` every `intervalMs` until it holds; throws naming `what` after `timeoutMs`. */
export async function waitUntil(what: string, check: () => Promise<boolean>, { intervalMs = 100, timeoutMs = 30_000 } = {}): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`${what}: not after ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** Ready to convert: the worker has published its capabilities and the key API lists `to` for `from`. */
export async function waitUntilConverts(service: BuiltService, from: string, to: string): Promise<void> {
  await waitUntil(
    `the service converting ${from} → ${to}`,
    async () => {
      const response = await fetch(`${service.baseUrl}/api/v1/list_ext_out`, { method: 'POST', headers: { accept: 'application/json', 'content-type': 'application/json' }, body: JSON.stringify({ ext_in: from }) });
      const listed = (await response.json()) as { extensions?: string[] };
      return listed.extensions?.includes(to) ?? false;
    },
    { intervalMs: 200, timeoutMs: 300_000 },
  );
}

/** SIGTERM, then the process's exit (at once if it has already exited). */
async function terminate(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/**
 * Starts the built service as its own process (what `npm start` runs), so its memory can be watched, and
 * waits until its HTTP API answers (a worker, ROLE=worker, serves none: it is returned at once).
 * `onLogLine` receives its log lines (JSON, at LOG_LEVEL, silent unless env sets one). Its QUEUE_PREFIX is
 * the benchmark's own (`bench-<pid>-<port>` unless env names one), never the service's default. `nodeArgs` go to
 * Node before the script (`npm start`'s own flags).
 */
export async function spawnBuiltService(env: Record<string, string>, onLogLine?: (line: string) => void, nodeArgs: string[] = []): Promise<BuiltService> {
  const port = await freePort();
  const ownDataDir = env.DATA_DIR === undefined;
  const dataDir = env.DATA_DIR ?? mkdtempSync(join(tmpdir(), 'fileshift-bench-'));
  const child = spawn(process.execPath, [...nodeArgs, 'apps/api/dist/main.js'], {
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'silent', QUEUE_PREFIX: `bench-${process.pid}-${port}`, X402_RATE_LIMIT_PER_MINUTE: '1000000', KEY_API_ANONYMOUS_REQUESTS_PER_MINUTE: '1000000', KEY_API_ANONYMOUS_DAILY_QUOTA: '1000000', ...env, DATA_DIR: dataDir, PORT: String(port) },
    stdio: ['ignore', onLogLine ? 'pipe' : 'ignore', 'ignore'],
  });
  if (onLogLine) createInterface({ input: child.stdout! }).on('line', onLogLine);
  const service: BuiltService = {
    child,
    baseUrl: `http://127.0.0.1:${port}`,
    dataDir,
    async stop() {
      await terminate(child);
      if (ownDataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
  if (env.ROLE === 'worker') return service;
  try {
    // 90 s: on a machine busy with other work, a start (PGlite's first open, the engines' pools) took over 30 s.
    await waitUntil('the service answering /api/x402/v1/health', async () => (await fetch(`${service.baseUrl}/api/x402/v1/health`)).ok, { timeoutMs: 90_000 });
  } catch (error) {
    await service.stop();
    throw error;
  }
  return service;
}

export function rssBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) * 1024;
}
