import { readFileSync, readdirSync } from 'node:fs';
import { processTree } from './process-tree.js';

/** Clock ticks per second of /proc's CPU times (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

interface ProcStat {
  name: string;
  /** Its own user + system time, in ms. */
  ownMs: number;
  /** Its children's that it waited for (ended ones), in ms. */
  childrenMs: number;
}

function procStat(pid: number): ProcStat | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined; // ended while we looked
  }
  // The name is in parentheses and may hold spaces; the fields after it are space-separated.
  const close = text.lastIndexOf(')');
  const fields = text.slice(close + 2).split(' ');
  const ticks = (index: number) => Number(fields[index - 3]);
  return { name: text.slice(text.indexOf('(') + 1, close), ownMs: ((ticks(14) + ticks(15)) * 1000) / TICKS_PER_SECOND, childrenMs: ((ticks(16) + ticks(17)) * 1000) / TICKS_PER_SECOND };
}

/**
 * CPU time used so far by `pid` and everything it started: each live process of its tree, with what its ended children
 * used (counted in their parent once waited for). The difference of two readings is the CPU the tree used
 * in between, whether its processes lived through it or not.
 */
export function treeCpuMs(pid: number): number {
  return processTree(pid).reduce((total, member) => {
    const stat = procStat(member.pid);
    return total + (stat ? stat.ownMs + stat.childrenMs : 0);
  }, 0);
}

/** CPU time used so far by every process of this name (all of PostgreSQL's: `postgres`), ended children of them included. */
export function namedCpuMs(name: string): number {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = procStat(Number(entry));
    if (stat?.name === name) total += stat.ownMs + stat.childrenMs;
  }
  return total;
}
