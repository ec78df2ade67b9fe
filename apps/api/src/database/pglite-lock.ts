import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const LOCK_FILE = 'fileshift.pid';

/**
 * PGlite is an in-process database: two processes opening one data directory would each see their
 * own copy and overwrite the other's. The first process takes the directory; any other refuses to start.
 */
export function lockPgliteDirectory(dataDir: string): void {
  const lockPath = join(dataDir, LOCK_FILE);
  try {
    writeFileSync(lockPath, String(process.pid), { flag: 'wx' });
  } catch {
    const holder = Number(readFileSync(lockPath, 'utf8'));
    if (holder === process.pid) return;
    if (isRunning(holder)) {
      throw new Error(
        `the embedded PGlite database in ${dataDir} is in use by process ${holder}, and PGlite allows one process. ` +
          'Stop that process first, or use PostgreSQL (DATABASE_URL) to share the database.',
      );
    }
    writeFileSync(lockPath, String(process.pid));
  }
  process.once('exit', () => {
    if (readIfPresent(lockPath) === String(process.pid)) rmSync(lockPath, { force: true });
  });
}

function readIfPresent(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

function isRunning(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
