import type { SyscallName } from './syscall-table.js';

/**
 * What a filtered call gets. `kill`: the whole process dies with SIGSYS, and the runner reports the job as
 * `security_rejected` (no engine makes such a call for a document; one that does was made to). `enosys`: the
 * call "does not exist", for features a program probes and then does without (clone3 → clone, io_uring → read).
 * `eperm`: refused, the program carries on without it.
 */
export type SeccompAction = 'kill' | 'enosys' | 'eperm';

/** One filtered system call, optionally only for some arguments, and why. */
export interface SyscallRule {
  syscall: SyscallName;
  action: SeccompAction;
  /** The call is filtered only when its first argument… (without: always). */
  firstArgument?: { allowedValues: readonly number[] } | { forbiddenBits: number };
  why: string;
}

/** What a sandboxed engine may do with sockets (its network namespace has only a loopback of its own either way). */
export type SocketPolicy = 'unix-only' | 'unix-only-refused';
/** An engine whose descriptor names no policy: an internet socket kills it. */
export const DEFAULT_SOCKET_POLICY: SocketPolicy = 'unix-only';

const AF_UNIX = 1;
/** CLONE_NEWNS | CLONE_NEWCGROUP | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNET. */
export const CLONE_NAMESPACE_FLAGS = 0x00020000 | 0x02000000 | 0x04000000 | 0x08000000 | 0x10000000 | 0x20000000 | 0x40000000;

const kill = (why: string, ...syscalls: SyscallName[]): SyscallRule[] => syscalls.map((syscall) => ({ syscall, action: 'kill', why }));

/**
 * The calls no engine needs to turn a document into another, refused to every engine. Each is kernel attack
 * surface, a way out of the namespaces, or a way to touch the host beyond them.
 */
export const BASE_SYSCALL_RULES: readonly SyscallRule[] = [
  ...kill('reads or writes another process (ptrace, process_vm_*, pidfd_getfd, kcmp)', 'ptrace', 'process_vm_readv', 'process_vm_writev', 'pidfd_getfd', 'kcmp'),
  ...kill('reshapes the file system view the sandbox was given', 'mount', 'umount2', 'pivot_root', 'chroot', 'open_tree', 'move_mount', 'fsopen', 'fsconfig', 'fsmount', 'fspick', 'mount_setattr'),
  ...kill('opens files by handle, around every path check', 'name_to_handle_at', 'open_by_handle_at'),
  ...kill('enters or makes namespaces: user namespaces are the kernel surface most privilege escalations start from', 'unshare', 'setns'),
  { syscall: 'clone', action: 'kill', firstArgument: { forbiddenBits: CLONE_NAMESPACE_FLAGS }, why: 'a clone into new namespaces (plain threads and processes are fine)' },
  // clone3 passes its flags in memory a filter cannot read: "not implemented" makes glibc fall back to clone.
  { syscall: 'clone3', action: 'enosys', why: 'its flags are out of a filter’s reach; glibc falls back to clone, which is checked' },
  ...kill('kernel programs and counters: large kernel surface and side channels', 'bpf', 'perf_event_open'),
  ...kill('pauses kernel page faults under user control, the classic race-widener of kernel exploits', 'userfaultfd'),
  { syscall: 'io_uring_setup', action: 'enosys', why: 'a second system call interface beside the one this filter sees; programs fall back to read/write' },
  { syscall: 'io_uring_enter', action: 'enosys', why: 'as io_uring_setup' },
  { syscall: 'io_uring_register', action: 'enosys', why: 'as io_uring_setup' },
  ...kill('the kernel keyring is not namespaced', 'keyctl', 'add_key', 'request_key'),
  ...kill('kernel modules and kernels', 'init_module', 'finit_module', 'delete_module', 'kexec_load', 'kexec_file_load'),
  ...kill('machine administration', 'reboot', 'swapon', 'swapoff', 'acct', 'quotactl', 'quotactl_fd', 'syslog', 'ioperm', 'iopl', 'uselib', 'lookup_dcookie', 'nfsservctl', 'fanotify_init'),
  ...kill('sets the machine’s clock', 'settimeofday', 'clock_settime', 'clock_adjtime', 'adjtimex'),
];

/**
 * Sockets: UNIX sockets only (pipes between an engine's own processes, LibreOffice's UNO pipe). Internet, raw,
 * packet and netlink sockets are refused: the sandbox's network namespace reaches nothing, and an engine asked
 * to fetch nothing has no use for one. `unix-only` kills the engine that tries (`security_rejected`);
 * `unix-only-refused` answers EPERM, for engines that open one in their normal course (see their descriptors).
 */
export function socketRules(policy: SocketPolicy): SyscallRule[] {
  return [
    {
      syscall: 'socket',
      action: policy === 'unix-only' ? 'kill' : 'eperm',
      firstArgument: { allowedValues: [AF_UNIX] },
      why: 'internet, raw, packet and netlink sockets: the engine has no network to reach and is asked to fetch nothing',
    },
  ];
}

export const engineSyscallRules = (policy: SocketPolicy): SyscallRule[] => [...BASE_SYSCALL_RULES, ...socketRules(policy)];
