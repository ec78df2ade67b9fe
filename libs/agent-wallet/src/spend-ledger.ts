import { appendFileSync, closeSync, fsyncSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { SignedPayment, SpentStore } from '@fileshift/sdk';

export type SpendRecord = SignedPayment;

/**
 * The wallet's spending, one JSON line per signed payment in a file, so the budget survives
 * restarts. A signed authorization counts as spent: its recipient can settle it at any time.
 * Appends are single writes with fsync; a torn last line (a crash mid-write) is ignored on reading.
 */
export class SpendLedger implements SpentStore {
  private readonly entries: SpendRecord[];
  /** A torn last line must not swallow the next record. */
  private endsMidLine: boolean;

  constructor(private readonly path: string) {
    const text = readText(path);
    this.entries = parseRecords(text);
    this.endsMidLine = text !== '' && !text.endsWith('\n');
  }

  records(): readonly SpendRecord[] {
    return this.entries;
  }

  /** Atomic units spent so far, over every network and asset. */
  total(): bigint {
    return this.entries.reduce((sum, record) => sum + BigInt(record.amount), 0n);
  }

  record(record: SpendRecord): void {
    mkdirSync(dirname(this.path), { recursive: true });
    const fd = openSync(this.path, 'a', 0o600);
    try {
      appendFileSync(fd, `${this.endsMidLine ? '\n' : ''}${JSON.stringify(record)}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    this.endsMidLine = false;
    this.entries.push(record);
  }
}

function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw error;
  }
}

function parseRecords(text: string): SpendRecord[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .flatMap((line) => {
      try {
        const record = JSON.parse(line) as SpendRecord;
        return /^\d+$/.test(record.amount) ? [record] : [];
      } catch {
        return [];
      }
    });
}
