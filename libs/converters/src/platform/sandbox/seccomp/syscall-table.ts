/** The architectures whose engines get a seccomp filter: the ones our images are built for. */
export const SECCOMP_ARCHES = ['x86_64', 'aarch64'] as const;
export type SeccompArch = (typeof SECCOMP_ARCHES)[number];

/** AUDIT_ARCH_* of <linux/audit.h>: what `seccomp_data.arch` holds for a native call. */
export const AUDIT_ARCH: Record<SeccompArch, number> = { x86_64: 0xc000003e, aarch64: 0xc00000b7 };

/**
 * The numbers of the system calls our filters name, from <asm/unistd_64.h> (x86_64) and <asm-generic/unistd.h>
 * (aarch64). A call an architecture does not have (iopl on aarch64) is simply absent there.
 */
export const SYSCALL_NUMBERS = {
  ptrace: { x86_64: 101, aarch64: 117 },
  process_vm_readv: { x86_64: 310, aarch64: 270 },
  process_vm_writev: { x86_64: 311, aarch64: 271 },
  pidfd_getfd: { x86_64: 438, aarch64: 438 },
  kcmp: { x86_64: 312, aarch64: 272 },
  mount: { x86_64: 165, aarch64: 40 },
  umount2: { x86_64: 166, aarch64: 39 },
  pivot_root: { x86_64: 155, aarch64: 41 },
  chroot: { x86_64: 161, aarch64: 51 },
  open_tree: { x86_64: 428, aarch64: 428 },
  move_mount: { x86_64: 429, aarch64: 429 },
  fsopen: { x86_64: 430, aarch64: 430 },
  fsconfig: { x86_64: 431, aarch64: 431 },
  fsmount: { x86_64: 432, aarch64: 432 },
  fspick: { x86_64: 433, aarch64: 433 },
  mount_setattr: { x86_64: 442, aarch64: 442 },
  name_to_handle_at: { x86_64: 303, aarch64: 264 },
  open_by_handle_at: { x86_64: 304, aarch64: 265 },
  unshare: { x86_64: 272, aarch64: 97 },
  setns: { x86_64: 308, aarch64: 268 },
  clone: { x86_64: 56, aarch64: 220 },
  clone3: { x86_64: 435, aarch64: 435 },
  bpf: { x86_64: 321, aarch64: 280 },
  perf_event_open: { x86_64: 298, aarch64: 241 },
  userfaultfd: { x86_64: 323, aarch64: 282 },
  io_uring_setup: { x86_64: 425, aarch64: 425 },
  io_uring_enter: { x86_64: 426, aarch64: 426 },
  io_uring_register: { x86_64: 427, aarch64: 427 },
  keyctl: { x86_64: 250, aarch64: 219 },
  add_key: { x86_64: 248, aarch64: 217 },
  request_key: { x86_64: 249, aarch64: 218 },
  init_module: { x86_64: 175, aarch64: 105 },
  finit_module: { x86_64: 313, aarch64: 273 },
  delete_module: { x86_64: 176, aarch64: 106 },
  kexec_load: { x86_64: 246, aarch64: 104 },
  kexec_file_load: { x86_64: 320, aarch64: 294 },
  reboot: { x86_64: 169, aarch64: 142 },
  swapon: { x86_64: 167, aarch64: 224 },
  swapoff: { x86_64: 168, aarch64: 225 },
  acct: { x86_64: 163, aarch64: 89 },
  quotactl: { x86_64: 179, aarch64: 60 },
  quotactl_fd: { x86_64: 443, aarch64: 443 },
  syslog: { x86_64: 103, aarch64: 116 },
  ioperm: { x86_64: 173 },
  iopl: { x86_64: 172 },
  uselib: { x86_64: 134 },
  lookup_dcookie: { x86_64: 212, aarch64: 18 },
  nfsservctl: { x86_64: 180, aarch64: 42 },
  fanotify_init: { x86_64: 300, aarch64: 262 },
  settimeofday: { x86_64: 164, aarch64: 170 },
  clock_settime: { x86_64: 227, aarch64: 112 },
  clock_adjtime: { x86_64: 305, aarch64: 266 },
  adjtimex: { x86_64: 159, aarch64: 171 },
  socket: { x86_64: 41, aarch64: 198 },
} as const satisfies Record<string, Partial<Record<SeccompArch, number>>>;

export type SyscallName = keyof typeof SYSCALL_NUMBERS;

/** The running machine's architecture as seccomp names it, or undefined where we build no filter. */
export function seccompArchOf(nodeArch: string): SeccompArch | undefined {
  if (nodeArch === 'x64') return 'x86_64';
  if (nodeArch === 'arm64') return 'aarch64';
  return undefined;
}
