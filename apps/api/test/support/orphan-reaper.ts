import { spawn } from 'node:child_process';

/**
 * Kills a test's server and removes its directory when the test process dies without cleaning up,
 * however it dies: vitest ends its workers with SIGTERM, which runs no exit hooks. A small shell
 * process in its own process group (so Ctrl-C does not take it down first) reads the server's pid
 * from a pipe; when the pipe closes because the test process is gone, it kills that pid and removes
 * the directory.
 */
export interface OrphanReaper {
  /** The server process to kill if the test process dies. */
  watch(pid: number): void;
  /** That process has exited: nothing to kill any more (its pid may be reused). */
  forget(pid: number): void;
  /** The owner has cleaned up: the reaper removes the directory (if still there) and exits. */
  dispose(): Promise<void>;
}

const REAPER_SCRIPT = `
pid=
while read -r line; do pid=$line; done
if [ -n "$pid" ]; then kill -KILL "$pid" 2>/dev/null; fi
rm -rf -- "$1"
`;

export function startOrphanReaper(dir: string): OrphanReaper {
  const reaper = spawn('/bin/sh', ['-c', REAPER_SCRIPT, 'orphan-reaper', dir], { detached: true, stdio: ['pipe', 'ignore', 'ignore'] });
  reaper.on('error', () => undefined); // without a reaper the test's own cleanup still runs
  reaper.stdin.on('error', () => undefined);
  const exited = new Promise<void>((resolve) => {
    if (reaper.exitCode !== null) resolve();
    reaper.once('close', () => resolve());
    reaper.once('error', () => resolve());
  });
  let watched: number | undefined;
  return {
    watch(pid) {
      watched = pid;
      reaper.stdin.write(`${pid}\n`);
    },
    forget(pid) {
      if (watched !== pid) return;
      watched = undefined;
      reaper.stdin.write('\n');
    },
    async dispose() {
      reaper.stdin.end();
      await exited;
    },
  };
}
