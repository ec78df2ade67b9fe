import 'reflect-metadata';
import type { INestApplicationContext } from '@nestjs/common';
import { loadConfig } from './config/app-config.js';
import { createHttpApp, createWorkerContext } from './bootstrap.js';
import { databaseDescription } from './database/data-source-options.js';
import { createLogger } from './logging/create-logger.js';
import { installProcessGuards } from './logging/process-guards.js';
import { announceDevChain } from './payments/announce-dev-chain.js';
import { describePaymentMode } from './payments/describe-payment-mode.js';
import { PaymentRails } from './payments/payment-rails.js';
import { checkRedisReachable } from './queue/check-redis.js';
import { checkBucketReachable } from './storage/check-bucket.js';
import { storageDescription } from './storage/create-file-storage.js';
import { activeResources, traceShutdown } from './shutdown-trace.js';
import { serviceVersion } from './version.js';

const REDIS_CHECK_TIMEOUT_MS = 5000;
const BUCKET_CHECK_TIMEOUT_MS = 10_000;

async function main(): Promise<void> {
  const loaded = loadConfig(process.env, serviceVersion());
  if (!loaded.ok) {
    // One problem, one line (what a log collector shows); several, a list.
    const problems = loaded.problems.length === 1 ? ` ${loaded.problems[0]}` : `\n${loaded.problems.map((p) => `  - ${p}`).join('\n')}`;
    process.stderr.write(`fileshift: invalid configuration:${problems}\n`);
    process.exit(78);
  }
  const config = loaded.config;
  const redisProblem = await checkRedisReachable(config.redisUrl, REDIS_CHECK_TIMEOUT_MS);
  if (redisProblem) {
    process.stderr.write(`fileshift: ${redisProblem}\n`);
    process.exit(69);
  }
  const bucketProblem = config.storage.driver === 's3' ? await checkBucketReachable(config.storage.s3, BUCKET_CHECK_TIMEOUT_MS) : null;
  if (bucketProblem) {
    process.stderr.write(`fileshift: ${bucketProblem}\n`);
    process.exit(69);
  }
  const logger = createLogger(config);
  installProcessGuards(process, logger, (code) => process.exit(code));
  logger.info({ database: databaseDescription(config), storage: storageDescription(config), role: config.role }, 'starting');

  let app: INestApplicationContext;
  if (config.role === 'worker') {
    app = await createWorkerContext(config, logger);
    logger.info('worker started');
  } else {
    const http = await createHttpApp(config, logger);
    await http.listen({ port: config.port, host: config.host });
    logger.info(`listening on http://${config.host}:${config.port}/api/x402/v1/`);
    const rails = http.get(PaymentRails);
    logger.info({ paymentsMode: rails.mode }, describePaymentMode(config.payments, rails.accepts));
    announceDevChain(rails, (line) => process.stdout.write(`${line}\n`));
    app = http;
  }

  const trace = traceShutdown(app);
  const shutdown = async (signal: string) => {
    logger.info({ signal }, 'shutting down: no new requests; finishing in-flight requests and jobs');
    setTimeout(() => {
      const hooks = trace.waitingOn();
      logger.error(`graceful shutdown timed out; exiting. Waiting on: ${hooks.length ? hooks.join(', ') : 'no shutdown hook (the HTTP server closing?)'}; open: ${activeResources()}`);
      process.exit(1);
    }, config.shutdownTimeoutMs).unref();
    await app.close();
    logger.info('stopped');
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
}

/**
 * Exit codes of sysexits.h: a worker that cannot sandbox is misconfigured (78), our sandbox's own mistake is a bug (70).
 * Known by name: the API role never loads the engines' code.
 */
const START_FAILURE_CODES: Record<string, number> = { SandboxUnavailableError: 78, SandboxSetupError: 70 };
const startFailureCode = (error: unknown) => (error instanceof Error ? START_FAILURE_CODES[error.name] : undefined) ?? 1;

main().catch((error: unknown) => {
  process.stderr.write(`fileshift: failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(startFailureCode(error));
});
