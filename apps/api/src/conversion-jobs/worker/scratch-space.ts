import { mkdir, rm } from 'node:fs/promises';
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

  async open(jobId: string): Promise<ScratchDirectory> {
    await mkdir(this.root, { recursive: true });
    const path = await ownedDirectory(this.root, '', jobId);
    return { path, file: (name) => join(path, name), remove: () => rm(path, { recursive: true, force: true }) };
  }

  /** Removes the directories of processes that no longer run; returns how many. */
  sweepOrphans(): Promise<number> {
    return sweepOrphanDirectories(this.root, '');
  }
}
