/**
 * Keeps a long-running server up when some code path forgets to handle a rejection or throws from
 * a callback: the error is logged on stderr (stdout is the protocol over stdio) and serving goes on.
 */
export function logStrayErrorsAndContinue(log: (line: string) => void = (line) => process.stderr.write(`${line}\n`)): void {
  process.on('unhandledRejection', (reason) => log(`fileshift-mcp: unhandled rejection (still serving): ${describe(reason)}`));
  process.on('uncaughtException', (error) => log(`fileshift-mcp: uncaught exception (still serving): ${describe(error)}`));
}

function describe(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}
