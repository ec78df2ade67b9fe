import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rm } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';

/** A directory one conversion owns on the worker's disk: the input is fetched into it and the engine works there. */
export interface ScratchDirectory {
  path: string;
  file(name: string): string;
  remove(): Promise<void>;
}

/**
 * Per-conversion scratch directories under one root. Each is named after the worker's host and process
 * id, so a worker that starts removes what dead workers of its host (SIGKILL, crash) left behind and never
 * touches a live worker's — nor any directory of another host (containers sharing a volume).
 */
export class ScratchSpace {
  // A host name never holds '_', so '<host>_' cannot be the start of another host's directories.
  private readonly host = hostname().replace(/[^A-Za-z0-9.-]/g, '-');

  constructor(private readonly root: string) {}

  async open(jobId: string): Promise<ScratchDirectory> {
    const path = join(this.root, `${this.host}_${process.pid}-${jobId}-${randomBytes(4).toString('hex')}`);
    await mkdir(path, { recursive: true, mode: 0o700 });
    return { path, file: (name) => join(path, name), remove: () => rm(path, { recursive: true, force: true }) };
  }

  /** Removes the directories of processes that no longer run; returns how many. */
  async sweepOrphans(): Promise<number> {
    const entries = await readdir(this.root).catch(() => [] as string[]);
    const ours = `${this.host}_`;
    const orphans = entries.filter((name) => {
      if (!name.startsWith(ours)) return false;
      const pid = Number(/^(\d+)-/.exec(name.slice(ours.length))?.[1]);
      return Number.isInteger(pid) && pid !== process.pid && !isRunning(pid);
    });
    await Promise.all(orphans.map((name) => rm(join(this.root, name), { recursive: true, force: true })));
    return orphans.length;
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
