import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

export interface DirectorySample {
  /** Bytes of every file in the directory. */
  bytes: number;
  names: string[];
}

const POLL_MS = 100;

/**
 * Samples a directory an engine writes several files into (its size and names) every 100 ms until stopped:
 * for engines that write a file per page, which the runner's single-file output cap does not reach.
 * The returned function stops it and waits for a sample under way.
 */
export function watchDirectory(dir: string, onSample: (sample: DirectorySample) => void, pollMs = POLL_MS): () => Promise<void> {
  let running = true;
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<void> = Promise.resolve();
  const schedule = () => {
    // The next sample is scheduled when this one is done: a slow disk never piles them up.
    timer = setTimeout(() => {
      current = sampleDirectory(dir)
        .then((sample) => (running ? onSample(sample) : undefined), () => undefined)
        .finally(() => (running ? schedule() : undefined));
    }, pollMs);
  };
  schedule();
  return async () => {
    running = false;
    clearTimeout(timer);
    await current;
  };
}

/** One sample: the files in `dir` and their total size. */
export async function sampleDirectory(dir: string): Promise<DirectorySample> {
  const names = await readdir(dir);
  const sizes = await Promise.all(names.map((name) => stat(join(dir, name)).then((s) => s.size, () => 0)));
  return { bytes: sizes.reduce((sum, size) => sum + size, 0), names };
}
