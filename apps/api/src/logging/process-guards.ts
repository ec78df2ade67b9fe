import type { EventEmitter } from 'node:events';
import type { Logger } from 'pino';

/** EX_SOFTWARE: the process found itself in a state it cannot trust; its supervisor restarts it. */
export const UNCAUGHT_EXIT_CODE = 70;

/**
 * Nothing ends a process silently. A promise rejection nobody handled is a bug, but it leaves the
 * process sound: it is logged with its context and the process keeps serving. An uncaught exception
 * may have left any state half-changed: it is logged as fatal and the process exits 70 for its
 * supervisor to restart — nothing is lost, since every paid job is durable in the database and a job
 * whose worker died is run again once its lease runs out (docs/job-cycle.md).
 */
export function installProcessGuards(target: Pick<EventEmitter, 'on'>, logger: Logger, exit: (code: number) => void): void {
  target.on('unhandledRejection', (reason: unknown) => {
    logger.error({ err: reason }, 'unhandled promise rejection (a bug); the process keeps serving');
  });
  target.on('uncaughtException', (error: Error, origin: string) => {
    logger.fatal({ err: error, origin }, `uncaught exception; exiting with code ${UNCAUGHT_EXIT_CODE} for the supervisor to restart the process`);
    exit(UNCAUGHT_EXIT_CODE);
  });
}
