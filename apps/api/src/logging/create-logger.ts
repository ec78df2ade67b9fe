import { type DestinationStream, pino, type Logger } from 'pino';
import type { AppConfig } from '../config/app-config.js';

/** Header names whose values must never reach a log line. */
const REDACTED_HEADERS = ['api-key', 'authorization', 'payment-signature', 'x-payment', 'cookie'];

/** The one pino instance of a process; Fastify's request logs and Nest's logs share it. Standard output unless told. */
export function createLogger(config: Pick<AppConfig, 'logLevel' | 'role' | 'version'>, destination?: DestinationStream): Logger {
  return pino(
    {
      level: config.logLevel,
      base: { service: 'fileshift', role: config.role, version: config.version },
      redact: { paths: REDACTED_HEADERS.map((name) => `req.headers["${name}"]`), censor: '[redacted]' },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    destination,
  );
}
