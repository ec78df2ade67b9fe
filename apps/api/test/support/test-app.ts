import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { pino } from 'pino';
import { createHttpApp } from '../../src/bootstrap.js';
import { type AppConfig, loadConfig } from '../../src/config/app-config.js';
import { createTestDatabase } from './test-database.js';
import { createTestQueuePrefix, TEST_REDIS_URL } from './test-queue.js';
import { activeResources, traceShutdown } from '../../src/shutdown-trace.js';

export interface TestApp {
  app: NestFastifyApplication;
  config: AppConfig;
  /** Its environment: another process of the same deployment (a replica, a worker) starts from it. */
  variables: Record<string, string>;
  baseUrl: string;
  close(): Promise<void>;
}

/** Environment of one test run: its own database, BullMQ prefix and data directory. */
export async function createTestEnvironment(env: Record<string, string> = {}) {
  const database = await createTestDatabase();
  const queue = createTestQueuePrefix();
  const dataDir = mkdtempSync(join(tmpdir(), 'fileshift-test-'));
  const variables: Record<string, string> = {
    DATABASE_URL: database.url,
    REDIS_URL: TEST_REDIS_URL,
    QUEUE_PREFIX: queue.prefix,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    PORT: '0',
    // Tests poll fast; the rate-limit tests set their own low limits.
    X402_RATE_LIMIT_PER_MINUTE: '100000',
    KEY_API_ANONYMOUS_REQUESTS_PER_MINUTE: '100000',
    KEY_API_ANONYMOUS_DAILY_QUOTA: '100000',
    // One warm LibreOffice instance per test service is enough.
    LIBREOFFICE_POOL_SIZE: '1',
    ...env,
  };
  return {
    variables,
    config(): AppConfig {
      const loaded = loadConfig(variables, '0.0.0-test');
      if (!loaded.ok) throw new Error(loaded.problems.join('; '));
      return loaded.config;
    },
    async drop(): Promise<void> {
      await queue.drop();
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Boots the real HTTP application on a random port against real PostgreSQL and Redis. */
export async function startTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const environment = await createTestEnvironment(env);
  const config = environment.config();
  const app = await createHttpApp(config, pino({ level: 'silent' }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.getHttpServer().address() as { port: number };
  const trace = traceShutdown(app);
  return {
    app,
    config,
    variables: environment.variables,
    baseUrl: `http://127.0.0.1:${address.port}`,
    async close() {
      // A close that hangs says what it waits on (seen on CI, rarely): the test's own timeout then shows it.
      const watchdog = setTimeout(() => {
        const hooks = trace.waitingOn();
        process.stderr.write(`test app close still waiting after 20 s on: ${hooks.length ? hooks.join(', ') : 'no shutdown hook (the HTTP server closing?)'}; open: ${activeResources()}\n`);
      }, 20_000);
      try {
        await app.close();
      } finally {
        clearTimeout(watchdog);
      }
      await environment.drop();
    },
  };
}
