import { mkdtempSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { isRunning } from './process-liveness.js';

// A host name never holds '_': '<prefix><host>_' is never the start of another host's directories.
const host = () => hostname().replace(/[^A-Za-z0-9.-]/g, '-');

/**
 * A directory under `root` (a job's scratch directory, a warm engine's sandbox…) named for this host and process,
 * `<prefix><host>_<pid>-[<label>-]XXXXXX`, mode 0700: a worker that dies leaves it, and a later one of this host sweeps
 * it (`sweepOrphanDirectories`) — never a live worker's, nor another host's (containers sharing a volume).
 */
export async function ownedDirectory(root: string, prefix: string, label?: string): Promise<string> {
  // Synchronous: one system call of a few µs, where the thread pool's round trip costs ten times that.
  return mkdtempSync(join(root, `${prefix}${host()}_${process.pid}-${label ? `${label}-` : ''}`));
}

/** Removes the directories `ownedDirectory` made under `root` for processes of this host that no longer run. */
export async function sweepOrphanDirectories(root: string, prefix: string): Promise<number> {
  const ours = `${prefix}${host()}_`;
  const orphans = (await readdir(root).catch(() => [] as string[])).filter((name) => {
    if (!name.startsWith(ours)) return false;
    const pid = Number(/^(\d+)-/.exec(name.slice(ours.length))?.[1]);
    return Number.isInteger(pid) && pid !== process.pid && !isRunning(pid);
  });
  await Promise.all(orphans.map((name) => rm(join(root, name), { recursive: true, force: true })));
  return orphans.length;
}
