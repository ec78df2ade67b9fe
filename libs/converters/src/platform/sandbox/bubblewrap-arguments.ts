import { prlimitArguments, type ProcessLimits } from './process-limits.js';
import type { SandboxLayout } from './sandbox-layout.js';

/** The user and group an engine runs as inside a user namespace of its own (a worker that is not root). */
const NAMESPACE_UID = 65534;

/**
 * Who the engine is.
 * - `own-user`: a root worker's bubblewrap makes the namespaces itself and the engine then runs as a user of its
 *   own (a uid lent to this sandbox alone; see sandbox-users.ts), with no capabilities left.
 * - `own-user-namespace`: a root worker that may change user but not make namespaces itself (a container without
 *   CAP_SYS_ADMIN) starts bubblewrap as the lent user, unprivileged, in a user namespace of its own.
 * - `user-namespace`: a worker that is not root runs bubblewrap unprivileged, in a user namespace where the engine is
 *   65534 — outside it, it is the worker's own user.
 */
export type SandboxIdentity = { kind: 'own-user'; uid: number } | { kind: 'own-user-namespace'; uid: number } | { kind: 'user-namespace' };

/** A private /tmp in memory, small: engines are given TMPDIR in their scratch directory. */
const TMP_BYTES = 64 * 1024 * 1024;

/** One sandboxed command, as bubblewrap is to build it. */
export interface SandboxInvocation {
  command: string;
  args: readonly string[];
  identity: SandboxIdentity;
  /**
   * Bound at their own paths: writable (the job's scratch directory, a warm instance's own directory) or read-only
   * (a policy file, a script, the Node binary).
   */
  binds: ReadonlyArray<{ path: string; writable: boolean }>;
  cwd: string;
  limits: ProcessLimits;
  /** The sandbox's /etc/passwd and /etc/group. */
  passwd: string;
  group: string;
  /** Descriptors bubblewrap reads its seccomp program from and writes its status to. */
  seccompFd?: number;
  statusFd: number;
}

const OWN_USER_NAMESPACES = ['--unshare-net', '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try'];
const USER_NAMESPACE_NAMESPACES = ['--unshare-all', '--uid', String(NAMESPACE_UID), '--gid', String(NAMESPACE_UID), '--cap-drop', 'ALL'];

/**
 * Pure: bubblewrap's arguments, then those of what it runs — `setpriv` to the engine's own user (a root worker)
 * and `prlimit` — then the command. New pid, mount, network (only its own loopback), IPC, UTS and cgroup
 * namespaces; no capabilities; `no_new_privs`; a new session (no terminal to push keystrokes into); dies with its
 * parent. The file system holds /usr, the /etc entries and system paths of the layout, a fresh /proc and /dev, a
 * private /tmp, and the given paths — nothing else: not the data directory, the checkout, home directories, the
 * database's files nor other jobs'.
 */
export function bubblewrapArguments(layout: SandboxLayout, invocation: SandboxInvocation): string[] {
  const { identity } = invocation;
  const args = [...(identity.kind === 'own-user' ? OWN_USER_NAMESPACES : USER_NAMESPACE_NAMESPACES), '--die-with-parent', '--new-session'];
  args.push('--ro-bind', '/usr', '/usr');
  for (const entry of layout.rootEntries) {
    if (entry.linkTo) args.push('--symlink', entry.linkTo, entry.path);
    else args.push('--ro-bind', entry.path, entry.path);
  }
  // Writable by the engine's user (sticky, as a /tmp is): LibreOffice makes its pipe there.
  args.push('--proc', '/proc', '--dev', '/dev', '--perms', '1777', '--size', String(TMP_BYTES), '--tmpfs', '/tmp');
  const binds = [
    ...layout.systemPaths.map((path) => ({ source: path, path, writable: false })),
    { source: invocation.passwd, path: '/etc/passwd', writable: false },
    { source: invocation.group, path: '/etc/group', writable: false },
    ...invocation.binds.map((bind) => ({ source: bind.path, ...bind })),
  ];
  // The directories above a bound path are made here, searchable by all: bubblewrap would copy the host's modes,
  // and a private parent (a 0700 scratch root, /etc made for its first entry) would keep the engine's user out.
  for (const dir of ancestorsToMake(binds.map((bind) => bind.path))) args.push('--perms', '0755', '--dir', dir);
  for (const bind of binds) args.push(bind.writable ? '--bind' : '--ro-bind', bind.source, bind.path);
  args.push('--chdir', invocation.cwd, '--json-status-fd', String(invocation.statusFd));
  if (invocation.seccompFd !== undefined) args.push('--seccomp', String(invocation.seccompFd));
  args.push('--');
  if (identity.kind === 'own-user') {
    // Changing user from root clears every capability; the bounding and inheritable sets go too.
    args.push('/usr/bin/setpriv', `--reuid=${identity.uid}`, `--regid=${identity.uid}`, '--clear-groups', '--inh-caps=-all', '--bounding-set=-all', '--no-new-privs', '--');
  }
  // After the user change: the process limit counts that user's processes, which are this sandbox's alone.
  args.push('/usr/bin/prlimit', ...prlimitArguments(invocation.limits), '--', invocation.command, ...invocation.args);
  return args;
}

/** Directories that exist in the sandbox before any bind: mounts of their own, or inside one (not /tmp's insides). */
const MOUNTED = ['/usr', '/proc', '/dev', '/tmp'];

/** Pure: the directories above `paths` to make, parents first, once each — none that a mount already provides. */
export function ancestorsToMake(paths: readonly string[]): string[] {
  const dirs = new Set<string>();
  for (const path of paths) {
    const parts = path.split('/').filter(Boolean);
    for (let depth = 1; depth < parts.length; depth++) {
      const dir = `/${parts.slice(0, depth).join('/')}`;
      if (MOUNTED.some((mounted) => dir === mounted || dir.startsWith(`${mounted}/`) && mounted !== '/tmp')) continue;
      dirs.add(dir);
    }
  }
  return [...dirs];
}
