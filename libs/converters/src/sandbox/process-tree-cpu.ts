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
 * The CPU seconds a process and its live descendants have used (Linux /proc). A warm engine's sandbox measures
 * each conversion with it: RLIMIT_CPU counts a process's whole life, not one conversion.
 */
export async function processTreeCpuSeconds(rootPid: number): Promise<number> {
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
  let ticks = 0;
  const pending = [rootPid];
  while (pending.length > 0) {
    const pid = pending.pop()!;
    ticks += stats.get(pid)?.ticks ?? 0;
    pending.push(...(children.get(pid) ?? []));
  }
  return ticks / TICKS_PER_SECOND;
}
