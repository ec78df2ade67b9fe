import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ownedDirectory, sweepOrphanDirectories } from '@fileshift/converters/worker';

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
  constructor(private readonly root: string) {}

  /**
   * Made and removed with synchronous calls: a conversion's directory holds a few files (a page each at most), each
   * call takes microseconds, and through the thread pool each cost about ten times that here — more than a small
   * image's whole conversion. The root is made only when it is missing (the first time, or if it vanished).
   */
  async open(jobId: string): Promise<ScratchDirectory> {
    const path = await ownedDirectory(this.root, '', jobId).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
      mkdirSync(this.root, { recursive: true });
      return ownedDirectory(this.root, '', jobId);
    });
    return { path, file: (name) => join(path, name), remove: async () => rmSync(path, { recursive: true, force: true }) };
  }

  /** Removes the directories of processes that no longer run; returns how many. */
  sweepOrphans(): Promise<number> {
    return sweepOrphanDirectories(this.root, '');
  }
}
