import { randomUUID } from 'node:crypto';
import { closeSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';

export interface FileLockOptions {
  /** A lock older than this is taken over even when its holder cannot be checked (another host, a hung process). */
  staleMs?: number;
  /** Give up waiting after this long. */
  maxWaitMs?: number;
}

const RETRY_MS = 5;

/**
 * An exclusive lock between processes: a file created with O_EXCL that names its holder
 * (`pid host token`). Held only around short critical sections (read, check, append), so a lock
 * whose holder is gone (dead pid on this host) or that is older than `staleMs` is taken over.
 */
export class FileLock {
  private readonly staleMs: number;
  private readonly maxWaitMs: number;

  constructor(
    readonly path: string,
    { staleMs = 10_000, maxWaitMs = 30_000 }: FileLockOptions = {},
  ) {
    this.staleMs = staleMs;
    this.maxWaitMs = maxWaitMs;
  }

  /** Runs `critical` holding the lock; waits (without blocking the event loop) while another process holds it. */
  async hold<T>(critical: () => T): Promise<T> {
    const deadline = Date.now() + this.maxWaitMs;
    for (;;) {
      const token = this.tryAcquire();
      if (token) return this.runAndRelease(token, critical);
      this.failIfPast(deadline);
      await sleep(RETRY_MS);
    }
  }

  /** The same, blocking the thread while it waits (for callers that must stay synchronous). */
  holdSync<T>(critical: () => T): T {
    const deadline = Date.now() + this.maxWaitMs;
    const pause = new Int32Array(new SharedArrayBuffer(4));
    for (;;) {
      const token = this.tryAcquire();
      if (token) return this.runAndRelease(token, critical);
      this.failIfPast(deadline);
      Atomics.wait(pause, 0, 0, RETRY_MS);
    }
  }

  private runAndRelease<T>(token: string, critical: () => T): T {
    try {
      return critical();
    } finally {
      // Remove only our own lock: a holder judged stale by another process may have lost it already.
      if (readHolder(this.path) === token) unlinkSync(this.path);
    }
  }

  /** The holder line written when the lock was taken, or null when another process holds it. */
  private tryAcquire(): string | null {
    const token = `${process.pid} ${hostname()} ${randomUUID()}`;
    let fd: number;
    try {
      fd = openSync(this.path, 'wx', 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      this.removeIfStale();
      return null;
    }
    try {
      writeSync(fd, token);
    } finally {
      closeSync(fd);
    }
    return token;
  }

  private removeIfStale(): void {
    const holder = readHolder(this.path);
    const modified = statOrNull(this.path)?.mtimeMs;
    if (holder === null || modified === undefined) return;
    const [pid, host] = holder.split(' ');
    const holderGone = host === hostname() && !isAlive(Number(pid));
    if (!holderGone && Date.now() - modified <= this.staleMs) return;
    // Re-read just before removing, so a lock taken over meanwhile by a third process is left alone.
    if (readHolder(this.path) === holder) unlinkIfPresent(this.path);
  }

  private failIfPast(deadline: number): void {
    if (Date.now() > deadline) {
      throw new Error(`the lock ${this.path} is still held by ${readHolder(this.path) ?? 'another process'}; remove it if no process is using the ledger`);
    }
  }
}

function readHolder(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

function statOrNull(path: string) {
  try {
    return statSync(path);
  } catch {
    return null;
  }
}

function unlinkIfPresent(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
