import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
// The built service: Nest's dependency injection needs the decorator metadata tsc emits (tsx's esbuild does not).
import { createHttpApp } from '../../apps/api/dist/bootstrap.js';
import { loadConfig } from '../../apps/api/dist/config/app-config.js';

/** Boots the real service on a free port (PGlite in a temp dir unless DATABASE_URL is set). */
export async function bootService(env: Record<string, string> = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'fileshift-bench-'));
  // Benchmarks measure the request path, not the rate limits (which still count every request).
  const limits = { X402_RATE_LIMIT_PER_MINUTE: '1000000', KEY_API_ANONYMOUS_REQUESTS_PER_MINUTE: '1000000', KEY_API_ANONYMOUS_DAILY_QUOTA: '1000000' };
  const loaded = loadConfig({ ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent', QUEUE_PREFIX: `bench-${process.pid}`, ...limits, ...env }, 'bench');
  if (!loaded.ok) throw new Error(loaded.problems.join('; '));
  const app = await createHttpApp({ ...loaded.config, role: 'api' }, pino({ level: 'silent' }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.getHttpServer().address() as { port: number };
  return {
    app,
    baseUrl: `http://127.0.0.1:${port}`,
    async close() {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
