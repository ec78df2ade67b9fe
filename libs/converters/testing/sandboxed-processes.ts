import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { basename } from 'node:path';

/** What /proc says of a process, as far as its isolation goes. */
export interface ProcessIsolation {
  pid: number;
  /**
   * The executable's file name (a thread pool may rename a process: LibreOffice's does), or for an interpreter (Python,
   * a shell) the name of the script it runs: img2pdf and ebook-convert are Python programs.
   */
  name: string;
  /** Real, effective, saved and file-system uids, as the worker sees them. */
  uids: number[];
  capEff: string;
  noNewPrivs: number;
  seccomp: number;
  ownNamespaces: { net: boolean; mnt: boolean; pid: boolean };
  addressSpaceLimit: string;
  /** Its arguments, NUL-separated as /proc has them. */
  commandLine: string;
}

const INTERPRETER = /^(python[\d.]*|dash|bash|sh|perl)$/;
const SELF_NAMESPACES = () => ({ net: readlinkSync('/proc/self/ns/net'), mnt: readlinkSync('/proc/self/ns/mnt'), pid: readlinkSync('/proc/self/ns/pid') });

/** The live descendants of a process, by the kernel's children lists (of every thread: any may fork), fast enough to poll every few ms. */
export function descendants(pid: number): number[] {
  const found: number[] = [];
  const pending = [pid];
  while (pending.length > 0) {
    const parent = pending.pop()!;
    let threads: string[] = [];
    try {
      threads = readdirSync(`/proc/${parent}/task`);
    } catch {
      continue;
    }
    for (const thread of threads) {
      let children: string[] = [];
      try {
        children = readFileSync(`/proc/${parent}/task/${thread}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
      } catch {
        continue;
      }
      for (const child of children.map(Number)) {
        found.push(child);
        pending.push(child);
      }
    }
  }
  return found;
}

/** The isolation of a live process, or undefined once it is gone. */
export function isolationOf(pid: number): ProcessIsolation | undefined {
  try {
    // A process that executes another program between two reads is read again later, whole.
    const before = readlinkSync(`/proc/${pid}/exe`);
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const field = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, 'm').exec(status)?.[1]?.trim() ?? '';
    const self = SELF_NAMESPACES();
    const limits = readFileSync(`/proc/${pid}/limits`, 'utf8');
    const executable = (() => {
      try {
        const name = basename(readlinkSync(`/proc/${pid}/exe`));
        if (!INTERPRETER.test(name)) return name;
        const script = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').slice(1).find((argument) => !argument.startsWith('-'));
        return script ? basename(script) : name;
      } catch {
        return field('Name');
      }
    })();
    const isolation: ProcessIsolation = {
      pid,
      name: executable,
      uids: field('Uid').split(/\s+/).map(Number),
      capEff: field('CapEff'),
      noNewPrivs: Number(field('NoNewPrivs')),
      seccomp: Number(field('Seccomp')),
      ownNamespaces: {
        net: readlinkSync(`/proc/${pid}/ns/net`) !== self.net,
        mnt: readlinkSync(`/proc/${pid}/ns/mnt`) !== self.mnt,
        pid: readlinkSync(`/proc/${pid}/ns/pid`) !== self.pid,
      },
      addressSpaceLimit: /^Max address space\s+(\S+)/m.exec(limits)?.[1] ?? '',
      commandLine: readFileSync(`/proc/${pid}/cmdline`, 'utf8'),
    };
    if (readlinkSync(`/proc/${pid}/exe`) !== before) return undefined;
    return isolation;
  } catch {
    return undefined;
  }
}

/**
 * bubblewrap's own processes (the monitor outside the sandbox, the reaper that is pid 1 inside it) and the launchers
 * that drop to the sandbox's user and set its limits before they become the engine: they parse nothing. A pid seen
 * as one of them is looked at again until it is the engine.
 */
export const SANDBOX_MACHINERY = new Set(['bwrap', 'setpriv', 'prlimit', 'nice']);

/**
 * Watches the descendants of `root` (this process unless told) every few milliseconds while `work` runs, and returns
 * the isolation of every engine process seen (the sandbox machinery left out), first sight of each pid.
 */
export async function censusDuring(work: () => Promise<unknown>, { root = process.pid, everyMs = 2 } = {}): Promise<ProcessIsolation[]> {
  const seen = new Map<number, ProcessIsolation>();
  const look = () => {
    for (const pid of descendants(root)) {
      if (seen.has(pid)) continue;
      const isolation = isolationOf(pid);
      // A process caught between fork and exec still is its parent (its command line too): look again next time.
      if (isolation && !SANDBOX_MACHINERY.has(isolation.name) && !forkedNotExecuted(pid, isolation)) seen.set(pid, isolation);
    }
  };
  const timer = setInterval(look, everyMs);
  try {
    await work();
    look();
  } finally {
    clearInterval(timer);
  }
  return [...seen.values()];
}

/** A child that has not executed its program yet: the same command line as its parent. */
function forkedNotExecuted(pid: number, isolation: ProcessIsolation): boolean {
  try {
    const parent = /^\d+ \(.*\) \S (\d+)/s.exec(readFileSync(`/proc/${pid}/stat`, 'utf8'))?.[1];
    return parent !== undefined && readFileSync(`/proc/${parent}/cmdline`, 'utf8') === isolation.commandLine;
  } catch {
    return true; // gone already
  }
}

/** Why a process is not isolated as every engine process must be; empty when it is. */
export function isolationProblems(process_: ProcessIsolation, serviceUid: number, options: { separateUser: boolean }): string[] {
  const problems: string[] = [];
  const { ownNamespaces: ns } = process_;
  if (!ns.net) problems.push('shares the network namespace');
  if (!ns.mnt) problems.push('shares the mount namespace');
  if (!ns.pid) problems.push('shares the pid namespace');
  if (options.separateUser && process_.uids.some((uid) => uid === 0 || uid === serviceUid)) problems.push(`runs as uid ${process_.uids.join('/')}`);
  if (process_.capEff !== '0000000000000000') problems.push(`has capabilities ${process_.capEff}`);
  if (process_.noNewPrivs !== 1) problems.push('may gain privileges (NoNewPrivs 0)');
  if (process_.seccomp !== 2) problems.push(`has no seccomp filter (Seccomp ${process_.seccomp})`);
  if (process_.addressSpaceLimit === 'unlimited' || !process_.addressSpaceLimit) problems.push('has no address-space limit');
  return problems;
}
