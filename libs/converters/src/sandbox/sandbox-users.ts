/**
 * The users a root worker lends its sandboxes, one per running sandbox: a process limit then counts one sandbox's
 * processes, and no two engines — of two jobs — are ever the same user. Within 0–65535, so a worker in a container
 * whose user namespace maps only those (Docker's userns-remap, Kubernetes) can still become them; clear of
 * Debian's system users, the users useradd makes (1000…) and nobody (65534).
 */
export const SANDBOX_USERS = { first: 61_000, count: 1000 } as const;

/** Hands out the uids of SANDBOX_USERS, each to one sandbox at a time, round robin (a freed uid rests longest). */
export class SandboxUsers {
  private readonly lent = new Set<number>();
  private next = 0;

  constructor(private readonly range: { first: number; count: number } = SANDBOX_USERS) {}

  lend(): number {
    for (let tried = 0; tried < this.range.count; tried++) {
      const uid = this.range.first + ((this.next + tried) % this.range.count);
      if (this.lent.has(uid)) continue;
      this.next = (this.next + tried + 1) % this.range.count;
      this.lent.add(uid);
      return uid;
    }
    throw new Error(`all ${this.range.count} sandbox users are in use`);
  }

  giveBack(uid: number): void {
    this.lent.delete(uid);
  }

  get inUse(): number {
    return this.lent.size;
  }
}
