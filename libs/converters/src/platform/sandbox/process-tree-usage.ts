import { readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';

/** Linux reports CPU time in USER_HZ ticks, 100 a second on every architecture it runs on today. */
const TICKS_PER_SECOND = 100;

interface ProcessStat {
  ppid: number;
  ticks: number;
}

/** Pure: the parent and the user + system ticks of one /proc/<pid>/stat line (the name may hold spaces and parens). */
export function parseProcessStat(line: string): ProcessStat | undefined {
  const fields = line.slice(line.lastIndexOf(')') + 2).split(' ');
  // After the name: state(3) ppid(4) … utime(14) stime(15), counted from 1 with pid and name first.
  const ppid = Number(fields[1]);
  const ticks = Number(fields[11]) + Number(fields[12]);
  return Number.isFinite(ppid) && Number.isFinite(ticks) ? { ppid, ticks } : undefined;
}

/**
 * What an engine's sandbox uses (Linux /proc): its CPU time, measured per conversion (RLIMIT_CPU counts a process's
 * whole life, not one conversion), and the memory its processes hold. The tree's processes are found once by a walk
 * of /proc and then read alone (a warm engine rarely starts new ones); `rediscover` walks again, for a conversion that
 * runs long enough to fork.
 */
export class ProcessTreeUsage {
  private pids?: number[];

  constructor(private readonly rootPid: number) {}

  async seconds(): Promise<number> {
    this.pids ??= await descendantsOf(this.rootPid);
    // Read synchronously: /proc is in memory, a read takes microseconds, and this runs at every request's start (a small
    // image's whole conversion takes about a millisecond; a thread-pool round trip per file took ~50 µs here).
    const ticks = this.pids.map((pid) => parseProcessStat(readProcStat(pid))?.ticks ?? 0);
    return ticks.reduce((sum, value) => sum + value, 0) / TICKS_PER_SECOND;
  }

  /**
   * The memory its processes hold, each counted for its share of the pages it shares (the proportional set size, so
   * that a browser's processes sharing their libraries are not counted several times); 0 once they are gone.
   */
  async residentBytes(): Promise<number> {
    this.pids ??= await descendantsOf(this.rootPid);
    return this.pids.reduce((sum, pid) => sum + proportionalBytes(pid), 0);
  }

  rediscover(): void {
    this.pids = undefined;
  }
}

/** Pure: the proportional set size of one /proc/<pid>/smaps_rollup (or, lacking it, the resident size of status), in bytes. */
export function parseResidentBytes(text: string): number {
  const kib = /^Pss:\s+(\d+) kB/m.exec(text)?.[1] ?? /^VmRSS:\s+(\d+) kB/m.exec(text)?.[1];
  return kib === undefined ? 0 : Number(kib) * 1024;
}

function proportionalBytes(pid: number): number {
  for (const file of ['smaps_rollup', 'status']) {
    try {
      return parseResidentBytes(readFileSync(`/proc/${pid}/${file}`, 'utf8'));
    } catch {
      // ended, or a kernel without smaps_rollup: the next file, else nothing
    }
  }
  return 0;
}

/** A process and its live descendants, by a walk of /proc. */
async function descendantsOf(rootPid: number): Promise<number[]> {
  const entries = (await readdir('/proc').catch(() => [] as string[])).filter((entry) => /^\d+$/.test(entry));
  const stats = new Map<number, ProcessStat>();
  await Promise.all(
    entries.map(async (entry) => {
      const stat = parseProcessStat(await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => ''));
      if (stat) stats.set(Number(entry), stat);
    }),
  );
  const children = new Map<number, number[]>();
  for (const [pid, { ppid }] of stats) children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  const found: number[] = [];
  const pending = [rootPid];
  while (pending.length > 0) {
    const pid = pending.pop()!;
    found.push(pid);
    pending.push(...(children.get(pid) ?? []));
  }
  return found;
}

function readProcStat(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return ''; // ended
  }
}
