import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
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

/**
 * Starts the built service as its own process (what `npm start` runs), so its memory can be watched.
 * `onLogLine` receives its log lines (JSON, at LOG_LEVEL, silent unless env sets one).
 */
export async function spawnBuiltService(env: Record<string, string>, onLogLine?: (line: string) => void): Promise<{ child: ChildProcess; baseUrl: string; dataDir: string }> {
  const port = await freePort();
  const dataDir = env.DATA_DIR ?? mkdtempSync(join(tmpdir(), 'fileshift-bench-'));
  const child = spawn(process.execPath, ['apps/api/dist/main.js'], {
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'silent', QUEUE_PREFIX: `bench-${process.pid}-${port}`, X402_RATE_LIMIT_PER_MINUTE: '1000000', KEY_API_ANONYMOUS_REQUESTS_PER_MINUTE: '1000000', KEY_API_ANONYMOUS_DAILY_QUOTA: '1000000', ...env, DATA_DIR: dataDir, PORT: String(port) },
    stdio: ['ignore', onLogLine ? 'pipe' : 'ignore', 'ignore'],
  });
  if (onLogLine) createInterface({ input: child.stdout! }).on('line', onLogLine);
  const baseUrl = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    if (env.ROLE === 'worker') break;
    if (await fetch(`${baseUrl}/api/x402/v1/health`).then((r) => r.ok, () => false)) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { child, baseUrl, dataDir };
}

export function rssBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) * 1024;
}
