/** Shared state of one corpus run: the scratch directory, the collected samples and the failures. */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

/** Bytes kept per sample: the detector reads 200, a little more leaves room to grow. */
export const KEEP_BYTES = 256;

export interface CollectedSample {
  format: string;
  name: string;
  size: number;
  producer: string;
  head: Buffer;
}

/** Tools that honour it stamp this date instead of now, so reruns give the same headers (zip, tar, PDF, gzip). */
const FIXED_ENVIRONMENT = { SOURCE_DATE_EPOCH: '1577934245', TZ: 'UTC', LC_ALL: 'C.UTF-8' };

export const FIXED_TIME = new Date('2020-01-02T03:04:05Z');

export const work = mkdtempSync(join(tmpdir(), 'fileshift-corpus-'));
export const collected: CollectedSample[] = [];
export const failures: string[] = [];

/** Runs a tool in the scratch directory; its output is ignored, stderr shows in the failure on error. */
export function run(command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; timeout?: number } = {}): Buffer {
  return execFileSync(command, args, {
    cwd: options.cwd ?? work,
    env: { ...(options.env ?? process.env), ...FIXED_ENVIRONMENT },
    timeout: options.timeout ?? 120_000,
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 64 * 1024 * 1024,
  });
}

/** Records a produced or found file as a sample of `format`, written by `producer`. */
export function keep(format: string, path: string, producer: string, name = basename(path)): void {
  const bytes = readFileSync(path);
  collected.push({ format, name, size: bytes.length, producer, head: Buffer.from(bytes.subarray(0, KEEP_BYTES)) });
}

/** Runs one production step; a missing tool or a refused conversion is noted, not fatal. */
export async function attempt(what: string, produce: () => unknown): Promise<void> {
  try {
    await produce();
  } catch (error) {
    failures.push(`${what}: ${(error as Error).message.split('\n')[0]}`);
  }
}

/** Writes a scratch file and returns its path. */
export function scratch(name: string, content: string | Buffer): string {
  const path = join(work, name);
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, content);
  utimesSync(path, FIXED_TIME, FIXED_TIME); // archivers copy the mtime into their headers
  return path;
}
