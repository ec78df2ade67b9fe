import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { DOCUMENT_FONTS, ENGINE_DESCRIPTORS } from '@fileshift/converters';
import { environmentSchema } from '../src/config/app-config.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const compose = parse(readFileSync(`${root}docker-compose.yml`, 'utf8'), { merge: true }) as {
  services: Record<string, { environment?: Record<string, string>; user?: string; cap_drop?: string[]; cap_add?: string[]; security_opt?: string[] }>;
};
const dockerfile = readFileSync(`${root}Dockerfile`, 'utf8');

/**
 * No Docker engine runs here; these read the files and check what the service needs of them. The compose
 * file's schema, topology and environments are checked in apps/stack-tests, which also runs it as processes.
 */
describe('container definitions', () => {
  it('compose only sets variables the service knows', () => {
    const known = new Set(Object.keys(environmentSchema.shape));
    for (const service of ['api', 'worker']) {
      for (const name of Object.keys(compose.services[service]!.environment!)) expect(known, name).toContain(name);
    }
  });

  it('the Dockerfile is multi-stage, on a Node LTS image, and runs as a non-root user', () => {
    expect(dockerfile.match(/^FROM /gm)).toHaveLength(2);
    expect(dockerfile).toMatch(/^ARG NODE_VERSION=(22|24)$/m);
    expect(dockerfile).toMatch(/^USER fileshift$/m);
    expect(dockerfile).toContain('HEALTHCHECK');
  });

  it('the image installs every engine: the Debian packages of each engine descriptor', () => {
    const installed = /apt-get install -y --no-install-recommends ([^&]+)&&/s.exec(dockerfile)?.[1]?.split(/[\s\\]+/).filter(Boolean) ?? [];
    for (const descriptor of ENGINE_DESCRIPTORS) {
      for (const pkg of descriptor.debianPackages) expect(installed, `${descriptor.id}: ${pkg}`).toContain(pkg);
    }
  });

  it('the image installs every document font (DOCUMENT_FONTS)', () => {
    const installed = /apt-get install -y --no-install-recommends ([^&]+)&&/s.exec(dockerfile)?.[1]?.split(/[\s\\]+/).filter(Boolean) ?? [];
    for (const font of DOCUMENT_FONTS) expect(installed).toContain(font.debianPackage);
  });

  it('the image sandboxes every engine by default: bubblewrap installed, ENGINE_SANDBOX=required', () => {
    expect(dockerfile).toMatch(/apt-get install -y --no-install-recommends [^&]*\bbubblewrap\b/s);
    expect(dockerfile).toMatch(/^ENV .*\bENGINE_SANDBOX=required\b/m);
  });

  it('gives the workers exactly what the engine sandbox needs, and the API nothing of it (docs/engine-sandbox.md)', () => {
    const worker = compose.services.worker!;
    expect(worker.user).toBe('0:0');
    expect(worker.cap_drop).toEqual(['ALL']);
    expect([...worker.cap_add!].sort()).toEqual(['CHOWN', 'DAC_OVERRIDE', 'FOWNER', 'KILL', 'SETGID', 'SETUID']);
    expect(worker.security_opt).toEqual([
      'no-new-privileges:true',
      'seccomp=deploy/worker-seccomp.json',
      'apparmor=${WORKER_APPARMOR_PROFILE:-fileshift-worker}',
      'systempaths=unconfined',
    ]);
    const api = compose.services.api!;
    for (const key of ['user', 'cap_add', 'security_opt'] as const) expect(api[key], key).toBeUndefined();
  });

  describe("the worker's seccomp profile, deploy/worker-seccomp.json (docs/engine-sandbox.md)", () => {
    type Arg = { index: number; value: number; valueTwo?: number; op: string };
    type Rule = { names: string[]; action: string; errnoRet?: number; args?: Arg[]; comment?: string };
    const profile = JSON.parse(readFileSync(`${root}deploy/worker-seccomp.json`, 'utf8')) as {
      defaultAction: string;
      defaultErrnoRet?: number;
      archMap: Array<{ architecture: string; subArchitectures: string[] }>;
      syscalls: Rule[];
    };
    const rulesFor = (name: string) => profile.syscalls.filter((rule) => rule.names.includes(name));
    const allowRules = profile.syscalls.filter((rule) => rule.action === 'SCMP_ACT_ALLOW');
    const unconditional = new Set(allowRules.filter((rule) => !rule.args?.length).flatMap((rule) => rule.names));
    /** Whether a call whose first argument is `a0` passes (rules of the same name are alternatives; a rule's arguments all hold). */
    const allows = (name: string, a0: number) =>
      rulesFor(name).some(
        (rule) =>
          rule.action === 'SCMP_ACT_ALLOW' &&
          (rule.args ?? []).every((arg) => {
            expect(arg.index).toBe(0);
            if (arg.op === 'SCMP_CMP_EQ') return a0 === arg.value;
            expect(arg.op).toBe('SCMP_CMP_MASKED_EQ');
            return Number(BigInt(a0) & BigInt(arg.value)) === arg.valueTwo;
          }),
      );

    const CLONE_NEWUSER = 0x10000000;
    // CLONE_NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER, NEWPID, NEWNET; unshare also takes CLONE_NEWTIME (0x80), which
    // in clone's flags is part of the exit signal.
    const NAMESPACE_FLAGS = 0x7e020000;
    const CLONE_NEWTIME = 0x80;
    const SIGCHLD = 17;

    /** The deny list docs/engine-sandbox.md gives, stated again here: a name the generator stops denying fails this test. */
    const DENIED = [
      ...['init_module', 'finit_module', 'delete_module', 'kexec_load', 'kexec_file_load'],
      ...['add_key', 'keyctl', 'request_key', 'bpf', 'perf_event_open', 'userfaultfd'],
      ...['ptrace', 'process_vm_readv', 'process_vm_writev', 'process_madvise', 'process_mrelease', 'kcmp', 'pidfd_getfd'],
      ...['open_by_handle_at', 'name_to_handle_at'],
      ...['settimeofday', 'stime', 'clock_settime', 'clock_settime64', 'clock_adjtime', 'clock_adjtime64', 'adjtimex'],
      ...['swapon', 'swapoff', 'reboot', 'acct', 'quotactl', 'quotactl_fd', 'syslog', 'vhangup'],
      ...['ioperm', 'iopl', 'pciconfig_iobase', 'pciconfig_read', 'pciconfig_write', 'modify_ldt', 'vm86', 'vm86old'],
      ...['setns', 'chroot', 'fanotify_init', 'fsopen', 'fsconfig', 'fsmount', 'fspick', 'move_mount', 'open_tree', 'open_tree_attr', 'mount_setattr'],
      ...['io_uring_setup', 'io_uring_enter', 'io_uring_register'],
      ...['uselib', 'lookup_dcookie', 'nfsservctl', '_sysctl', 'bdflush', 'create_module', 'get_kernel_syms', 'query_module'],
    ];

    it('is what tools/deploy/worker-seccomp.ts makes', () => {
      const check = spawnSync(process.execPath, ['--import', 'tsx', 'tools/deploy/worker-seccomp.ts', '--check'], { cwd: root, encoding: 'utf8' });
      expect(check.status, check.stderr).toBe(0);
    });

    it('has the shape Docker loads: refuses by default, knows x86_64 with x86 and x32 and aarch64 with arm, says why for each rule', () => {
      expect(Object.keys(profile).sort()).toEqual(['archMap', 'defaultAction', 'defaultErrnoRet', 'syscalls']);
      expect(profile.defaultAction).toBe('SCMP_ACT_ERRNO');
      expect(profile.defaultErrnoRet).toBe(1); // EPERM
      expect(profile.archMap).toEqual([
        { architecture: 'SCMP_ARCH_X86_64', subArchitectures: ['SCMP_ARCH_X86', 'SCMP_ARCH_X32'] },
        { architecture: 'SCMP_ARCH_AARCH64', subArchitectures: ['SCMP_ARCH_ARM'] },
      ]);
      for (const rule of profile.syscalls) {
        expect(['action', 'args', 'comment', 'errnoRet', 'names']).toEqual(expect.arrayContaining(Object.keys(rule)));
        expect(rule.names.length).toBeGreaterThan(0);
        for (const name of rule.names) expect(name).toMatch(/^[a-z0-9_]+$/);
        expect(['SCMP_ACT_ALLOW', 'SCMP_ACT_ERRNO']).toContain(rule.action);
        if (rule.action === 'SCMP_ACT_ERRNO') expect(Number.isInteger(rule.errnoRet)).toBe(true);
        expect(rule.comment, rule.names.join()).toBeTruthy();
        for (const arg of rule.args ?? []) {
          expect(arg.index).toBeGreaterThanOrEqual(0);
          expect(['SCMP_CMP_EQ', 'SCMP_CMP_MASKED_EQ']).toContain(arg.op);
          expect(Number.isSafeInteger(arg.value)).toBe(true);
        }
      }
    });

    it('allows what the worker, bubblewrap and the engines call, on each architecture', () => {
      const needed = ['read', 'write', 'openat', 'close', 'mmap', 'mprotect', 'futex', 'epoll_pwait', 'execve', 'wait4', 'socket', 'connect', 'sendto', 'recvfrom'];
      const sandbox = ['prctl', 'seccomp', 'capset', 'setresuid', 'setresgid', 'setgroups', 'prlimit64', 'setsid', 'mount', 'umount2', 'pivot_root'];
      const others = ['socketcall', 'mmap2', '_llseek', 'set_thread_area', 'arch_prctl', 'set_tls', 'cacheflush']; // x86, x86_64, arm
      for (const name of [...needed, ...sandbox, ...others]) expect(unconditional, name).toContain(name);
    });

    it('refuses the deny list: none of its names is in any rule that allows', () => {
      const allowed = new Set(allowRules.flatMap((rule) => rule.names));
      for (const name of DENIED) expect(allowed.has(name), name).toBe(false);
      for (const name of ['io_uring_setup', 'io_uring_enter', 'io_uring_register', 'uselib', 'clone3']) {
        expect(rulesFor(name), name).toEqual([expect.objectContaining({ action: 'SCMP_ACT_ERRNO', errnoRet: 38 })]); // ENOSYS
      }
    });

    it('clone and unshare make namespaces only together with a new user namespace; clone3 is ENOSYS', () => {
      for (const name of ['clone', 'unshare']) expect(unconditional.has(name), name).toBe(false);
      const conditions = (name: string) => rulesFor(name).map((rule) => rule.args);
      expect(conditions('clone')).toEqual([
        [{ index: 0, value: NAMESPACE_FLAGS, valueTwo: 0, op: 'SCMP_CMP_MASKED_EQ' }],
        [{ index: 0, value: CLONE_NEWUSER, valueTwo: CLONE_NEWUSER, op: 'SCMP_CMP_MASKED_EQ' }],
      ]);
      expect(conditions('unshare')).toEqual([
        [{ index: 0, value: NAMESPACE_FLAGS | CLONE_NEWTIME, valueTwo: 0, op: 'SCMP_CMP_MASKED_EQ' }],
        [{ index: 0, value: CLONE_NEWUSER, valueTwo: CLONE_NEWUSER, op: 'SCMP_CMP_MASKED_EQ' }],
      ]);
      const thread = 0x003d0f00; // CLONE_VM|FS|FILES|SIGHAND|THREAD|SYSVSEM|SETTLS|PARENT_SETTID|CHILD_CLEARTID
      const bubblewrap = NAMESPACE_FLAGS | SIGCHLD; // its clone into new user, mount, pid, network, IPC, UTS and cgroup namespaces
      expect([thread, SIGCHLD, bubblewrap].map((flags) => allows('clone', flags))).toEqual([true, true, true]);
      expect([0x20000 | SIGCHLD, 0x40000000, NAMESPACE_FLAGS & ~CLONE_NEWUSER].map((flags) => allows('clone', flags))).toEqual([false, false, false]);
      expect([CLONE_NEWUSER, 0x400 /* CLONE_FILES */].map((flags) => allows('unshare', flags))).toEqual([true, true]);
      expect([0x20000, 0x40000000, CLONE_NEWTIME].map((flags) => allows('unshare', flags))).toEqual([false, false, false]);
      expect(rulesFor('clone3')).toEqual([expect.objectContaining({ action: 'SCMP_ACT_ERRNO', errnoRet: 38 })]);
    });

    it('personality only reads the current one or sets the default', () => {
      expect([0xffffffff, 0].map((persona) => allows('personality', persona))).toEqual([true, true]);
      expect([0x0040000 /* ADDR_NO_RANDOMIZE */, 0x0400000 /* READ_IMPLIES_EXEC */].map((persona) => allows('personality', persona))).toEqual([false, false]);
    });
  });

  describe("the worker's AppArmor profile, deploy/worker-apparmor", () => {
    const text = readFileSync(`${root}deploy/worker-apparmor`, 'utf8');
    const rules = new Set(text.split('\n').map((line) => line.replace(/#.*/, '').trim()).filter(Boolean));

    it('is the profile compose names, and allows bubblewrap its mounts', () => {
      expect(text).toMatch(/^profile fileshift-worker flags=\(attach_disconnected,mediate_deleted\) \{$/m);
      for (const rule of ['mount,', 'umount,', 'pivot_root,', 'file,', 'network,']) expect(rules, rule).toContain(rule);
      expect(text).not.toMatch(/^\s*deny (mount|umount|pivot_root)\s*,/m);
    });

    it('denies by name what systempaths=unconfined uncovers, mounts onto /proc and /sys, and tracing', () => {
      const denials = [
        'deny @{PROC}/* wl,',
        'deny @{PROC}/[^0-9]*/** wl,',
        'deny @{PROC}/sys/** wl,',
        'deny @{PROC}/sysrq-trigger rwlk,',
        'deny @{PROC}/kcore rwlk,',
        'deny @{sys}/** wl,',
        'deny @{sys}/firmware/** rwlk,',
        'deny @{sys}/kernel/security/** rwlk,',
        'deny mount -> @{PROC}{,**},',
        'deny mount -> @{sys}{,**},',
        'deny network packet,',
      ];
      for (const rule of denials) expect(rules, rule).toContain(rule);
      expect([...rules].filter((rule) => rule.startsWith('ptrace'))).toEqual(['ptrace (read, readby) peer=fileshift-worker,', 'ptrace (readby, tracedby) peer=unconfined,']);
    });

    // apparmor_parser comes with Debian's apparmor package, which the test command installs (tools/engines).
    it('compiles (apparmor_parser, without loading it)', () => {
      const compiled = spawnSync('apparmor_parser', ['--skip-kernel-load', '--skip-cache', '--quiet', `${root}deploy/worker-apparmor`], { encoding: 'utf8' });
      expect(compiled.status, compiled.stderr).toBe(0);
    });
  });
});
