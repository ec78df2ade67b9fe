import { lstat, readdir, stat } from 'node:fs/promises';
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
 * `sample` is `sampleDirectory` (the files directly in it) or `sampleTree` (every file below it).
 * The returned function stops it and waits for a sample under way.
 */
export function watchDirectory(dir: string, onSample: (sample: DirectorySample) => void, pollMs = POLL_MS, sample = sampleDirectory): () => Promise<void> {
  let running = true;
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<void> = Promise.resolve();
  const schedule = () => {
    // The next sample is scheduled when this one is done: a slow disk never piles them up.
    timer = setTimeout(() => {
      current = sample(dir)
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

/**
 * One sample of a whole tree (an archive being extracted): the regular files below `dir` at any depth, their
 * total size, and their paths relative to `dir`. Links are not followed; entries that vanish are skipped.
 */
export async function sampleTree(dir: string): Promise<DirectorySample> {
  const names: string[] = [];
  let bytes = 0;
  const visit = async (relative: string): Promise<void> => {
    const entries = await readdir(join(dir, relative), { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const path = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) await visit(path);
      else if (entry.isFile()) {
        names.push(path);
        bytes += await lstat(join(dir, path)).then((s) => s.size, () => 0);
      }
    }
  };
  await visit('');
  return { bytes, names };
}
