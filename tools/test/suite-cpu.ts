import { existsSync, mkdirSync, readFileSync, rmdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * What a suite costs in CPU, all its processes counted (engines in their sandboxes, services it started, daemons its
 * processes left to init): a control group of its own, when the machine lets the runner make one (cgroup v1's
 * cpuacct, or a writable cgroup v2 tree). Elsewhere nothing is measured and the report shows wall times only.
 */
export interface CpuMeter {
  /** The arguments that start `command args…` inside the suite's group. */
  wrap(command: string, args: readonly string[]): { command: string; args: string[] };
  /** CPU seconds used so far by everything that ran in the group. */
  seconds(): number;
  remove(): void;
}

const V1_ROOT = '/sys/fs/cgroup/cpuacct';
const V2_ROOT = '/sys/fs/cgroup';

export function cpuMeter(runId: string, suite: string): CpuMeter | undefined {
  const name = `fileshift-tests-${runId}-${suite.replace(/[^A-Za-z0-9_-]+/g, '_')}`;
  for (const kind of ['v1', 'v2'] as const) {
    const root = kind === 'v1' ? V1_ROOT : V2_ROOT;
    if (kind === 'v1' ? !existsSync(join(root, 'cpuacct.usage')) : !existsSync(join(root, 'cgroup.controllers'))) continue;
    const dir = join(root, name);
    try {
      mkdirSync(dir);
    } catch {
      continue;
    }
    const usage = () => (kind === 'v1' ? Number(readFileSync(join(dir, 'cpuacct.usage'), 'utf8')) / 1e9 : Number(/usage_usec (\d+)/.exec(readFileSync(join(dir, 'cpu.stat'), 'utf8'))?.[1] ?? 0) / 1e6);
    try {
      usage();
    } catch {
      rmdirSync(dir);
      continue;
    }
    return {
      // The shell joins the group, then becomes the command: everything it starts is counted from its first instruction.
      // A group it may not join measures nothing, and the suite runs all the same.
      wrap: (command, args) => ({ command: '/bin/sh', args: ['-c', `echo $$ 2>/dev/null > ${join(dir, 'cgroup.procs')}; exec "$0" "$@"`, command, ...args] }),
      seconds: () => {
        try {
          return usage();
        } catch {
          return Number.NaN;
        }
      },
      remove: () => {
        try {
          rmdirSync(dir);
        } catch {
          // a process of the suite still in it: the group goes when the machine does
        }
      },
    };
  }
  return undefined;
}
