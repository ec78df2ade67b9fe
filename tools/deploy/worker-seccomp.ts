// The worker container's seccomp profile, deploy/worker-seccomp.json. Our own design (docs/engine-sandbox.md): every
// system call Linux has on our architectures (tools/deploy/linux-syscalls.ts) is allowed, less the deny list below, one
// reason per group; a call the list does not know — a newer kernel's — is refused. Four calls have conditions: clone and
// unshare make new namespaces only together with a new user namespace (bubblewrap's way), personality only reads or
// resets, and clone3 answers "not implemented". The worker runs bubblewrap without CAP_SYS_ADMIN: it needs mount,
// umount2 and pivot_root, which the kernel allows only inside a user namespace bubblewrap has just made.
//
//   node --import tsx tools/deploy/worker-seccomp.ts           writes deploy/worker-seccomp.json
//   node --import tsx tools/deploy/worker-seccomp.ts --check   exits 1 when the committed file is not what this makes
//   node --import tsx tools/deploy/worker-seccomp.ts --oci x86_64|aarch64
//       prints the profile for one architecture in the runtime-spec (OCI) form, `architectures` in place of Docker's
//       `archMap`, for a Kubernetes `Localhost` profile (docs/engine-sandbox.md)
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ALL_SYSCALL_NAMES } from './linux-syscalls.js';

const OUTPUT = fileURLToPath(new URL('../../deploy/worker-seccomp.json', import.meta.url));

const EPERM = 1;
const ENOSYS = 38;

interface Argument {
  index: number;
  value: number;
  valueTwo?: number;
  op: 'SCMP_CMP_EQ' | 'SCMP_CMP_MASKED_EQ';
}
interface SyscallRule {
  names: string[];
  action: 'SCMP_ACT_ALLOW' | 'SCMP_ACT_ERRNO';
  errnoRet?: number;
  args?: Argument[];
  comment: string;
}
/** Docker's seccomp profile format: the runtime-spec's, with `archMap` (the host's architecture and those it runs). */
export interface DockerProfile {
  defaultAction: 'SCMP_ACT_ERRNO';
  defaultErrnoRet: number;
  archMap: Array<{ architecture: string; subArchitectures: string[] }>;
  syscalls: SyscallRule[];
}

/** x86_64 hosts run x86 and x32 programs too, arm64 hosts arm ones: a filter must know each, or they would pass by. */
const ARCH_MAP: DockerProfile['archMap'] = [
  { architecture: 'SCMP_ARCH_X86_64', subArchitectures: ['SCMP_ARCH_X86', 'SCMP_ARCH_X32'] },
  { architecture: 'SCMP_ARCH_AARCH64', subArchitectures: ['SCMP_ARCH_ARM'] },
];

export interface DenyGroup {
  names: readonly string[];
  why: string;
  /** The answer: EPERM ("not permitted", the profile's default) unless a program should take the call as absent. */
  errno?: typeof ENOSYS;
}

/**
 * What the worker's processes — Node, bubblewrap, the engines inside their sandboxes — are refused. Many of these need
 * a capability the worker does not have (it has six, never CAP_SYS_ADMIN), so the kernel would refuse them anyway: the
 * profile refuses them too, so that a capability granted by mistake opens nothing, and the kernel code behind them is
 * never reached. An `strace -f` of the worker converting through every engine, in the sandbox, found none of them
 * called (docs/engine-sandbox.md, "What was verified").
 */
export const DENY: readonly DenyGroup[] = [
  {
    names: ['init_module', 'finit_module', 'delete_module', 'kexec_load', 'kexec_file_load'],
    why: 'code into the kernel: loading or removing a module, loading a kernel to boot into',
  },
  {
    names: ['add_key', 'keyctl', 'request_key'],
    why: "the kernel's keyrings are kept per user id and are not the container's own: the worker's root would share the host root's; a record of kernel bugs, and no user here",
  },
  {
    names: ['bpf'],
    why: 'programs run by the kernel, checked by a verifier with a long record of escapes; nothing here loads one',
  },
  {
    names: ['perf_event_open'],
    why: "performance counters: a view of other processes' and the kernel's behaviour, and a large, often-exploited interface",
  },
  {
    names: ['userfaultfd'],
    why: "lets a process pause the kernel in the middle of copying user memory: the usual tool to win a kernel race",
  },
  {
    names: ['ptrace', 'process_vm_readv', 'process_vm_writev', 'process_madvise', 'process_mrelease', 'kcmp', 'pidfd_getfd'],
    why: "reading, writing, steering or comparing another process — its memory, registers, descriptors: the worker reaches its engines through files and pipes, never like this",
  },
  {
    names: ['open_by_handle_at', 'name_to_handle_at'],
    why: 'opening a file by its handle, without a path, can reach files outside the mount namespace (a known container escape)',
  },
  {
    names: ['settimeofday', 'stime', 'clock_settime', 'clock_settime64', 'clock_adjtime', 'clock_adjtime64', 'adjtimex'],
    why: "the system clock is the host's, not the container's (adjtimex and clock_adjtime also read it; nothing here does)",
  },
  {
    names: ['swapon', 'swapoff', 'reboot', 'acct', 'quotactl', 'quotactl_fd', 'syslog', 'vhangup'],
    why: "the host's administration: swap, reboot, process accounting, disk quotas, the kernel's log (which shows kernel addresses), hanging up terminals",
  },
  {
    names: ['ioperm', 'iopl', 'pciconfig_iobase', 'pciconfig_read', 'pciconfig_write'],
    why: 'hardware: I/O ports (x86), PCI configuration space (arm)',
  },
  {
    names: ['modify_ldt', 'vm86', 'vm86old'],
    why: 'x86 segment tables and virtual 8086 mode, for 16-bit code and emulators: old kernel code with a record of bugs',
  },
  {
    names: ['setns'],
    why: "joining a namespace by descriptor: bubblewrap uses it only for --userns and --pidns, which the worker does not pass; refused, the worker's root cannot enter another process's namespaces",
  },
  {
    names: ['chroot'],
    why: 'bubblewrap 0.8 changes root with pivot_root, never chroot (its source); chroot with an open directory outside is the classic escape',
  },
  {
    names: ['fsopen', 'fsconfig', 'fsmount', 'fspick', 'move_mount', 'open_tree', 'open_tree_attr', 'mount_setattr'],
    why: "the descriptor-based mount API: a second way to do what mount does; bubblewrap 0.8 uses mount(2) only, and one way is enough to reason about",
  },
  {
    names: ['fanotify_init'],
    why: 'watching a whole file system or mount, including what other processes open; inotify stays for watching one\'s own files',
  },
  {
    names: ['io_uring_setup', 'io_uring_enter', 'io_uring_register'],
    why: "a second system call interface: what a ring does (open, read, connect, …) never passes this filter, and it has had many privilege escalations. Answered 'not implemented', as by a kernel without it: libuv (Node) and others then use ordinary calls",
    errno: ENOSYS,
  },
  {
    names: [
      ...['uselib', 'lookup_dcookie', 'nfsservctl', '_sysctl', 'bdflush', 'create_module', 'get_kernel_syms', 'query_module'],
      ...['afs_syscall', 'break', 'ftime', 'getpmsg', 'gtty', 'idle', 'lock', 'mpx', 'prof', 'profil', 'putpmsg', 'security'],
      ...['stty', 'tuxcall', 'ulimit', 'vserver', 'epoll_ctl_old', 'epoll_wait_old'],
    ],
    why: "removed from Linux (uselib's a.out libraries, oprofile's cookies, the NFS server's and sysctl's old calls, 2.4's module calls) or never implemented: answered 'not implemented', as a current kernel does",
    errno: ENOSYS,
  },
];

const CLONE_NEWNS = 0x00020000;
const CLONE_NEWCGROUP = 0x02000000;
const CLONE_NEWUTS = 0x04000000;
const CLONE_NEWIPC = 0x08000000;
export const CLONE_NEWUSER = 0x10000000;
const CLONE_NEWPID = 0x20000000;
const CLONE_NEWNET = 0x40000000;
/** unshare only: in clone's flags this bit belongs to the exit signal (the low byte). */
const CLONE_NEWTIME = 0x00000080;
/** The flags that make a namespace, for clone (its first argument on every architecture here) … */
export const CLONE_NAMESPACE_FLAGS = CLONE_NEWNS | CLONE_NEWCGROUP | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNET;
/** … and for unshare. */
export const UNSHARE_NAMESPACE_FLAGS = CLONE_NAMESPACE_FLAGS | CLONE_NEWTIME;

/** `(flags & mask) == value`, flags being the first argument. */
const flags = (mask: number, value: number): Argument[] => [{ index: 0, value: mask, valueTwo: value, op: 'SCMP_CMP_MASKED_EQ' }];

const PER_LINUX = 0;
const PERSONALITY_QUERY = 0xffffffff;

/** Rules with conditions, and the calls the kernel itself confines to a user namespace bubblewrap made. */
export const CONDITIONAL: readonly SyscallRule[] = [
  {
    names: ['clone'],
    action: 'SCMP_ACT_ALLOW',
    args: flags(CLONE_NAMESPACE_FLAGS, 0),
    comment: 'clone without namespace flags: threads, fork, posix_spawn',
  },
  {
    names: ['clone'],
    action: 'SCMP_ACT_ALLOW',
    args: flags(CLONE_NEWUSER, CLONE_NEWUSER),
    comment:
      "clone into new namespaces only together with a new user namespace, which then owns them: bubblewrap's clone into new user, mount, pid, network, IPC, UTS and cgroup namespaces. Other namespaces would need CAP_SYS_ADMIN, which the worker does not have",
  },
  {
    names: ['unshare'],
    action: 'SCMP_ACT_ALLOW',
    args: flags(UNSHARE_NAMESPACE_FLAGS, 0),
    comment: "unshare without namespace flags: unsharing one's own file table or working directory",
  },
  {
    names: ['unshare'],
    action: 'SCMP_ACT_ALLOW',
    args: flags(CLONE_NEWUSER, CLONE_NEWUSER),
    comment: "unshare of namespaces only together with a new user namespace: bubblewrap's second user namespace, which maps the engine to uid 65534",
  },
  {
    names: ['clone3'],
    action: 'SCMP_ACT_ERRNO',
    errnoRet: ENOSYS,
    comment: "clone3 passes its flags in memory, out of a filter's reach: 'not implemented' makes glibc fall back to clone, whose flags the rules above read",
  },
  {
    names: ['mount', 'umount2', 'umount', 'pivot_root'],
    action: 'SCMP_ACT_ALLOW',
    comment:
      "bubblewrap builds each engine sandbox's root with mount, pivot_root and umount2. The kernel allows them only to a process with CAP_SYS_ADMIN over the user namespace that owns the mount namespace: the worker's root has none over the container's, so they work only in namespaces bubblewrap made",
  },
  {
    names: ['personality'],
    action: 'SCMP_ACT_ALLOW',
    args: [{ index: 0, value: PERSONALITY_QUERY, op: 'SCMP_CMP_EQ' }],
    comment: 'personality only to read the current one …',
  },
  {
    names: ['personality'],
    action: 'SCMP_ACT_ALLOW',
    args: [{ index: 0, value: PER_LINUX, op: 'SCMP_CMP_EQ' }],
    comment: '… or to set the default: no other flags, which would turn off address randomisation for what the process runs next (ADDR_NO_RANDOMIZE) or make its data executable (READ_IMPLIES_EXEC)',
  },
];

const ACTIONS = ['SCMP_ACT_ALLOW', 'SCMP_ACT_ERRNO'];
const OPERATORS = ['SCMP_CMP_EQ', 'SCMP_CMP_MASKED_EQ'];

/** Throws unless `profile` has the shape Docker loads, and every rule says why it is there. */
export function assertDockerProfileShape(profile: DockerProfile): void {
  const fail = (message: string) => {
    throw new Error(`not a Docker seccomp profile: ${message}`);
  };
  if (profile.defaultAction !== 'SCMP_ACT_ERRNO' || !Number.isInteger(profile.defaultErrnoRet)) fail('default action');
  if (!Array.isArray(profile.archMap) || profile.archMap.some((arch) => ![arch.architecture, ...arch.subArchitectures].every((name) => name.startsWith('SCMP_ARCH_')))) fail('archMap');
  if (!Array.isArray(profile.syscalls) || profile.syscalls.length === 0) fail('no syscalls');
  for (const [i, rule] of profile.syscalls.entries()) {
    if (!Array.isArray(rule.names) || rule.names.length === 0 || rule.names.some((name) => !/^[a-z0-9_]+$/.test(name))) fail(`syscalls[${i}].names`);
    if (!ACTIONS.includes(rule.action)) fail(`syscalls[${i}].action ${rule.action}`);
    if (rule.action === 'SCMP_ACT_ERRNO' && !Number.isInteger(rule.errnoRet)) fail(`syscalls[${i}].errnoRet`);
    if (!rule.comment) fail(`syscalls[${i}].comment`);
    for (const arg of rule.args ?? []) {
      if (!Number.isInteger(arg.index) || arg.index < 0 || arg.index > 5 || !OPERATORS.includes(arg.op) || !Number.isSafeInteger(arg.value) || arg.value < 0) fail(`syscalls[${i}].args`);
      if (arg.op === 'SCMP_CMP_MASKED_EQ' && !(Number.isSafeInteger(arg.valueTwo) && arg.valueTwo! >= 0)) fail(`syscalls[${i}].args valueTwo`);
    }
  }
}

/** The profile, from the tables of names and the lists above. */
export function workerProfile(known: readonly string[] = ALL_SYSCALL_NAMES): DockerProfile {
  const knownSet = new Set(known);
  const denied = DENY.flatMap((group) => group.names);
  const conditional = CONDITIONAL.flatMap((rule) => rule.names);
  for (const name of [...denied, ...conditional]) {
    if (!knownSet.has(name)) throw new Error(`${name} is in no table of tools/deploy/linux-syscalls.ts: a typo, or a table to refresh`);
  }
  const twice = [...denied, ...new Set(conditional)].filter((name, i, all) => all.indexOf(name) !== i);
  if (twice.length > 0) throw new Error(`listed twice: ${twice.join(', ')}`);
  const handled = new Set([...denied, ...conditional]);
  const allowed = known.filter((name) => !handled.has(name));
  const profile: DockerProfile = {
    defaultAction: 'SCMP_ACT_ERRNO',
    defaultErrnoRet: EPERM,
    archMap: ARCH_MAP,
    syscalls: [
      {
        names: allowed,
        action: 'SCMP_ACT_ALLOW',
        comment:
          'Fileshift worker (tools/deploy/worker-seccomp.ts, docs/engine-sandbox.md): every system call of Linux x86_64, x86, x32, arm64 and arm, less the deny list of the generator (each group with its reason: refused with EPERM, the default, unless a rule below answers ENOSYS) and the calls the rules below set conditions on. A call not named here — one newer than the list — is refused',
      },
      ...CONDITIONAL,
      ...DENY.filter((group) => group.errno !== undefined).map((group): SyscallRule => ({
        names: [...group.names],
        action: 'SCMP_ACT_ERRNO',
        errnoRet: group.errno,
        comment: `refused as not implemented: ${group.why}`,
      })),
    ],
  };
  assertDockerProfileShape(profile);
  return profile;
}

type Arch = 'x86_64' | 'aarch64';

/** The profile for one architecture in the runtime-spec form (`architectures`, no `archMap`, no comments). */
export function ociProfile(profile: DockerProfile, arch: Arch) {
  const entry = profile.archMap.find((candidate) => candidate.architecture === `SCMP_ARCH_${arch.toUpperCase()}`)!;
  return {
    defaultAction: profile.defaultAction,
    defaultErrnoRet: profile.defaultErrnoRet,
    architectures: [entry.architecture, ...entry.subArchitectures],
    syscalls: profile.syscalls.map(({ names, action, errnoRet, args }) => ({ names, action, ...(errnoRet === undefined ? {} : { errnoRet }), ...(args ? { args } : {}) })),
  };
}

const format = (profile: unknown) => `${JSON.stringify(profile, null, 2)}\n`;

function main(argv: string[]): number {
  const profile = workerProfile();
  if (argv[0] === '--oci') {
    const arch = argv[1];
    if (arch !== 'x86_64' && arch !== 'aarch64') {
      console.error('--oci takes x86_64 or aarch64');
      return 2;
    }
    process.stdout.write(format(ociProfile(profile, arch)));
    return 0;
  }
  const text = format(profile);
  if (argv[0] === '--check') {
    const current = readFileSync(OUTPUT, 'utf8');
    if (current === text) return 0;
    console.error('deploy/worker-seccomp.json is not what tools/deploy/worker-seccomp.ts makes: run it again');
    return 1;
  }
  writeFileSync(OUTPUT, text);
  const denied = DENY.reduce((count, group) => count + group.names.length, 0);
  console.log(`deploy/worker-seccomp.json: ${profile.syscalls[0]!.names.length} calls allowed, ${denied} denied, ${CONDITIONAL.length} conditional rules`);
  return 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) process.exitCode = main(process.argv.slice(2));
