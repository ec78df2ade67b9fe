import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isRunning } from './process-liveness.js';
import { machineTempDir } from './absolute-path.js';

/**
 * The users a root worker lends its sandboxes, one per running sandbox: a process limit then counts one sandbox's
 * processes, and no two engines — of two jobs — are ever the same user. Within 0–65535, so a worker in a container
 * whose user namespace maps only those (Docker's userns-remap, Kubernetes) can still become them; clear of
 * Debian's system users, the users useradd makes (1000…) and nobody (65534).
 */
export const SANDBOX_USERS = { first: 61_000, count: 1000 } as const;

/** Where the workers of one machine mark the users they lent (one file each, holding the lender's pid): root's own. */
export const DEFAULT_LENDING_DIR = join(machineTempDir(), 'fileshift-sandbox-users');

/**
 * Hands out the uids of SANDBOX_USERS, each to one sandbox at a time on the whole machine — across every worker
 * process of it, not only this one (each uid lent is a file created exclusively in the lending directory; a file whose
 * lender no longer runs is taken over) — round robin, so a freed uid rests longest.
 */
export class SandboxUsers {
  private readonly lent = new Set<number>();
  private next = 0;

  constructor(
    private readonly range: { first: number; count: number } = SANDBOX_USERS,
    private readonly dir = DEFAULT_LENDING_DIR,
  ) {}

  lend(): number {
    for (let tried = 0; tried < this.range.count; tried++) {
      const uid = this.range.first + ((this.next + tried) % this.range.count);
      if (this.lent.has(uid) || !this.claim(uid)) continue;
      this.next = (this.next + tried + 1) % this.range.count;
      this.lent.add(uid);
      return uid;
    }
    throw new Error(`all ${this.range.count} sandbox users are in use`);
  }

  giveBack(uid: number): void {
    if (!this.lent.delete(uid)) return;
    try {
      unlinkSync(this.mark(uid));
    } catch {
      // already gone
    }
  }

  get inUse(): number {
    return this.lent.size;
  }

  /**
   * Marks `uid` as this process's, unless a live process holds it already. The mark appears whole, pid inside (a
   * hard link of a file written first): no other worker ever reads it empty.
   */
  private claim(uid: number): boolean {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const written = join(this.dir, `.${uid}.${process.pid}`);
    writeFileSync(written, String(process.pid), { mode: 0o600 });
    try {
      return this.publish(uid, written);
    } finally {
      unlinkSync(written);
    }
  }

  private publish(uid: number, written: string): boolean {
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        linkSync(written, this.mark(uid));
        return true;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        let holder: number;
        try {
          holder = Number(readFileSync(this.mark(uid), 'utf8').trim());
        } catch {
          continue; // given back meanwhile: try again
        }
        if (holder === process.pid || isRunning(holder)) return false;
        // Its lender died (its sandboxes died with it): the mark is stale.
        try {
          unlinkSync(this.mark(uid));
        } catch {
          // another worker took it over first
        }
      }
    }
    return false;
  }

  private mark(uid: number): string {
    return join(this.dir, String(uid));
  }
}
