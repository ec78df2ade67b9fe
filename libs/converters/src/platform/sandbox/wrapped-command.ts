import type { SpawnOptions } from 'node:child_process';

/** Where bubblewrap writes its status (`--json-status-fd`) and reads the seccomp program (`--seccomp`). */
export const STATUS_FD = 3;
export const SECCOMP_FD = 4;


/** One engine command as the runner spawns it. */
export interface WrappedCommand {
  command: string;
  args: string[];
  /** uid/gid to spawn with. */
  identity: Pick<SpawnOptions, 'uid' | 'gid'>;
  /** The seccomp program to write on descriptor 4, bubblewrap's status comes on descriptor 3; absent when not sandboxed. */
  seccomp?: Buffer;
  sandboxed: boolean;
}

