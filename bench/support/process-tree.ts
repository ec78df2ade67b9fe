import { readFileSync, readdirSync } from 'node:fs';

/** One process of a tree as /proc shows it now. */
export interface TreeProcess {
  pid: number;
  name: string;
  rssBytes: number;
}

const readOrEmpty = (path: string) => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return ''; // the process or thread ended while we looked
  }
};

/** `pid` and every descendant (children of all its threads, recursively), with their resident memory. */
export function processTree(pid: number): TreeProcess[] {
  const status = readOrEmpty(`/proc/${pid}/status`);
  if (!status) return [];
  const name = /^Name:\s+(.*)$/m.exec(status)?.[1] ?? '?';
  const rssBytes = Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0) * 1024;
  let threads: string[] = [];
  try {
    threads = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [{ pid, name, rssBytes }];
  }
  const children = threads.flatMap((tid) => readOrEmpty(`/proc/${pid}/task/${tid}/children`).split(' ').filter(Boolean).map(Number));
  return [{ pid, name, rssBytes }, ...children.flatMap(processTree)];
}
