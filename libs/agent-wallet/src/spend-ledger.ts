import { closeSync, fstatSync, fsyncSync, mkdirSync, openSync, readSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import type { SignedPayment, SpendDecision, SpentStore } from '@fileshift/sdk';
import { FileLock } from './file-lock.js';

export interface SpendRecord extends SignedPayment {
  /** The paying wallet's address. Lines written before ledgers named their wallet have none and count for every wallet. */
  wallet?: string;
}

/**
 * One wallet's spending, kept as JSON lines in a file that several processes (and several wallets)
 * may share, so the budget survives restarts and holds across processes. A signed authorization
 * counts as spent: its recipient can settle it at any time.
 *
 * Reads pick up what other processes appended since the last read; `reserve` checks and appends
 * under an exclusive lock file, so two processes cannot both spend the last of a budget. Appends are
 * single writes with fsync; a torn last line (a crash mid-write) is ignored.
 */
export class SpendLedger implements SpentStore {
  private readonly lock: FileLock;
  private readonly wallet: string;
  private mine: SpendRecord[] = [];
  private readOffset = 0;
  private fileId: number | null = null;

  constructor(
    readonly path: string,
    wallet: string,
  ) {
    this.wallet = wallet.toLowerCase();
    this.lock = new FileLock(`${path}.lock`);
    this.refresh();
  }

  /** Whether this ledger keeps `address`'s spending. */
  belongsTo(address: string): boolean {
    return address.toLowerCase() === this.wallet;
  }

  /** This wallet's payments, including those other processes recorded. */
  records(): readonly SpendRecord[] {
    this.refresh();
    return this.mine;
  }

  /** Atomic units this wallet spent, over every network and asset and every process. */
  total(): bigint {
    return this.records().reduce((sum, record) => sum + BigInt(record.amount), 0n);
  }

  /** Appends a payment (under the lock, so it never interleaves with another process's check). */
  record(payment: SignedPayment): SpendRecord {
    mkdirSync(dirname(this.path), { recursive: true });
    return this.lock.holdSync(() => this.append(payment));
  }

  /**
   * Check-and-record across processes: under the lock, reads what others appended, asks `admit`
   * with this wallet's total, and appends the payment only if it is allowed.
   */
  async reserve(payment: SignedPayment, admit: (spent: bigint) => SpendDecision): Promise<{ decision: SpendDecision; record?: SpendRecord }> {
    mkdirSync(dirname(this.path), { recursive: true });
    return this.lock.hold(() => {
      const decision = admit(this.total());
      return decision.allowed ? { decision, record: this.append(payment) } : { decision };
    });
  }

  /** Call with the lock held. */
  private append(payment: SignedPayment): SpendRecord {
    const record: SpendRecord = { ...payment, wallet: this.wallet };
    const fd = openSync(this.path, 'a+', 0o600);
    try {
      const size = fstatSync(fd).size;
      const last = Buffer.alloc(1);
      // A torn last line must not swallow this record: end it first.
      const endsMidLine = size > 0 && readSync(fd, last, 0, 1, size - 1) === 1 && last[0] !== NEWLINE;
      writeSync(fd, `${endsMidLine ? '\n' : ''}${JSON.stringify(record)}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    this.refresh();
    return record;
  }

  /** Reads the complete lines appended since the last read (from the start if the file was replaced). */
  private refresh(): void {
    let fd: number;
    try {
      fd = openSync(this.path, 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      this.restart(null);
      return;
    }
    try {
      const { size, ino } = fstatSync(fd);
      if (ino !== this.fileId || size < this.readOffset) this.restart(ino);
      if (size === this.readOffset) return;
      const fresh = Buffer.alloc(size - this.readOffset);
      const read = readSync(fd, fresh, 0, fresh.length, this.readOffset);
      const end = fresh.subarray(0, read).lastIndexOf(NEWLINE);
      if (end < 0) return;
      this.mine.push(...parseRecords(fresh.subarray(0, end).toString('utf8')).filter((record) => record.wallet === undefined || record.wallet.toLowerCase() === this.wallet));
      this.readOffset += end + 1;
    } finally {
      closeSync(fd);
    }
  }

  private restart(fileId: number | null): void {
    this.fileId = fileId;
    this.readOffset = 0;
    this.mine = [];
  }
}

const NEWLINE = 0x0a;

function parseRecords(text: string): SpendRecord[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .flatMap((line) => {
      try {
        const record = JSON.parse(line) as SpendRecord;
        return typeof record.amount === 'string' && /^\d+$/.test(record.amount) ? [record] : [];
      } catch {
        return [];
      }
    });
}
