import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ancestorsToMake, bubblewrapArguments } from '../src/platform/sandbox/bubblewrap-arguments.js';
import { limitFailure } from '../src/platform/sandbox/limit-failure.js';
import { processLimitsOf, prlimitArguments } from '../src/platform/sandbox/process-limits.js';
import { parseProcessStat, parseResidentBytes } from '../src/platform/sandbox/process-tree-usage.js';
import { SandboxUsers } from '../src/platform/sandbox/sandbox-users.js';
import { actionValue, compileSeccompFilter } from '../src/platform/sandbox/seccomp/seccomp-program.js';
import { BASE_SYSCALL_RULES, CLONE_NAMESPACE_FLAGS, engineSyscallRules } from '../src/platform/sandbox/seccomp/seccomp-rules.js';
import { AUDIT_ARCH, SYSCALL_NUMBERS } from '../src/platform/sandbox/seccomp/syscall-table.js';

/** The program as instructions again: code, jt, jf, k. */
const instructions = (bytes: Buffer) => Array.from({ length: bytes.length / 8 }, (_, i) => ({ code: bytes.readUInt16LE(i * 8), jt: bytes[i * 8 + 2]!, jf: bytes[i * 8 + 3]!, k: bytes.readUInt32LE(i * 8 + 4) }));

/** Runs a classic BPF seccomp program over a call: what the kernel would answer (a tiny interpreter, enough for ours). */
function verdict(bytes: Buffer, call: { arch: number; nr: number; arg0?: number }): number {
  const program = instructions(bytes);
  let accumulator = 0;
  for (let pc = 0; pc < program.length; pc++) {
    const { code, jt, jf, k } = program[pc]!;
    if (code === 0x20) accumulator = k === 0 ? call.nr : k === 4 ? call.arch : k === 16 ? (call.arg0 ?? 0) : NaN;
    else if (code === 0x15) pc += accumulator === k ? jt : jf;
    else if (code === 0x35) pc += accumulator >= k ? jt : jf;
    else if (code === 0x45) pc += (accumulator & k) !== 0 ? jt : jf;
    else if (code === 0x06) return k;
    else throw new Error(`unknown instruction ${code}`);
  }
  throw new Error('the program fell off its end');
}

describe('the seccomp filter', () => {
  const program = compileSeccompFilter('x86_64', engineSyscallRules('unix-only'));
  const x86 = AUDIT_ARCH.x86_64;
  const ALLOW = 0x7fff0000;

  it('kills every base rule’s call, and allows what it does not name', () => {
    for (const rule of BASE_SYSCALL_RULES.filter((r) => !r.firstArgument)) {
      const nr = SYSCALL_NUMBERS[rule.syscall].x86_64;
      if (nr !== undefined) expect(verdict(program, { arch: x86, nr }), rule.syscall).toBe(actionValue(rule.action));
    }
    for (const nr of [0, 1, 2, 3, 9, 57, 59, 60, 231]) expect(verdict(program, { arch: x86, nr })).toBe(ALLOW);
  });

  it('allows threads and processes, kills a clone into new namespaces, answers clone3 “not implemented”', () => {
    const clone = SYSCALL_NUMBERS.clone.x86_64;
    expect(verdict(program, { arch: x86, nr: clone, arg0: 0x003d0f00 })).toBe(ALLOW);
    for (const flag of [0x10000000, 0x20000000, 0x40000000, 0x00020000]) expect(verdict(program, { arch: x86, nr: clone, arg0: 0x11 | flag })).toBe(actionValue('kill'));
    expect(CLONE_NAMESPACE_FLAGS & 0x7e020000).toBe(CLONE_NAMESPACE_FLAGS);
    expect(verdict(program, { arch: x86, nr: SYSCALL_NUMBERS.clone3.x86_64 })).toBe(actionValue('enosys'));
  });

  it('allows UNIX sockets only: an internet socket kills, or is refused under the refusing policy', () => {
    const socket = SYSCALL_NUMBERS.socket.x86_64;
    expect(verdict(program, { arch: x86, nr: socket, arg0: 1 })).toBe(ALLOW);
    for (const family of [2, 10, 16, 17]) expect(verdict(program, { arch: x86, nr: socket, arg0: family })).toBe(actionValue('kill'));
    const refusing = compileSeccompFilter('x86_64', engineSyscallRules('unix-only-refused'));
    expect(verdict(refusing, { arch: x86, nr: socket, arg0: 2 })).toBe(actionValue('eperm'));
  });

  it('kills a call of another architecture or of the x32 ABI', () => {
    expect(verdict(program, { arch: 0x40000003, nr: 1 })).toBe(actionValue('kill'));
    expect(verdict(program, { arch: x86, nr: 0x40000000 | 1 })).toBe(actionValue('kill'));
  });

  it('builds aarch64’s program with aarch64’s numbers', () => {
    const arm = compileSeccompFilter('aarch64', engineSyscallRules('unix-only'));
    expect(verdict(arm, { arch: AUDIT_ARCH.aarch64, nr: SYSCALL_NUMBERS.ptrace.aarch64 })).toBe(actionValue('kill'));
    expect(verdict(arm, { arch: AUDIT_ARCH.aarch64, nr: 101 })).toBe(ALLOW);
    expect(verdict(arm, { arch: x86, nr: 101 })).toBe(actionValue('kill'));
  });
});

describe('bubblewrap’s arguments', () => {
  const layout = { rootEntries: [{ path: '/bin', linkTo: 'usr/bin' }, { path: '/lib64' }], systemPaths: ['/etc/fonts', '/var/cache/fontconfig'] };
  const limits = processLimitsOf({ timeoutMs: 60_000, maxOutputBytes: 1000 });
  const base = { command: 'pandoc', args: ['--sandbox'], binds: [{ path: '/data/scratch/job-1', writable: true }, { path: '/opt/policy', writable: false }], cwd: '/data/scratch/job-1/run', limits, passwd: '/x/passwd', group: '/x/group', seccompFd: 4, statusFd: 3 };

  it('makes a root worker’s sandbox itself and drops to the lent user, the limits set after', () => {
    const args = bubblewrapArguments(layout, { ...base, identity: { kind: 'own-user', uid: 61007 } });
    expect(args).toEqual(expect.arrayContaining(['--unshare-net', '--unshare-pid', '--die-with-parent', '--new-session', '--seccomp', '4', '--json-status-fd', '3']));
    expect(args).not.toContain('--unshare-all');
    const tail = args.slice(args.indexOf('--') + 1);
    expect(tail.slice(0, 3)).toEqual(['/usr/bin/setpriv', '--reuid=61007', '--regid=61007']);
    expect(tail.indexOf('/usr/bin/prlimit')).toBeGreaterThan(tail.indexOf('/usr/bin/setpriv'));
    expect(tail.slice(-2)).toEqual(['pandoc', '--sandbox']);
    expect(args.join(' ')).toContain('--bind /data/scratch/job-1 /data/scratch/job-1');
    expect(args.join(' ')).toContain('--ro-bind /opt/policy /opt/policy');
    expect(args.join(' ')).toContain('--symlink usr/bin /bin');
  });

  it('in a user namespace: no setpriv, no capabilities, user 65534 inside', () => {
    const args = bubblewrapArguments(layout, { ...base, identity: { kind: 'user-namespace' } });
    expect(args).toEqual(expect.arrayContaining(['--unshare-all', '--cap-drop', 'ALL', '--uid', '65534']));
    expect(args).not.toContain('/usr/bin/setpriv');
  });

  it('makes the directories above each bound path searchable, once, none a mount already gives', () => {
    expect(ancestorsToMake(['/data/scratch/job-1', '/data/scratch/job-2', '/usr/lib/x', '/etc/fonts', '/tmp/a/b'])).toEqual(['/data', '/data/scratch', '/etc', '/tmp/a']);
  });
});

describe('limits', () => {
  it('fills defaults from the descriptor, and one past the largest output as the file size', () => {
    expect(processLimitsOf({ timeoutMs: 120_000, maxOutputBytes: 1000 })).toEqual({ memoryBytes: 3 * 1024 ** 3, residentBytes: 2 * 1024 ** 3, cpuSeconds: 240, processes: 256, openFiles: 1024, fileBytes: 1001 });
    // A smaller address space than the default resident bound is the bound.
    expect(processLimitsOf({ timeoutMs: 1000, maxOutputBytes: 1, memoryBytes: 1024 ** 3 }).residentBytes).toBe(1024 ** 3);
    expect(processLimitsOf({ timeoutMs: 120_000, maxOutputBytes: 1000, maxExpandedBytes: 5000, cpuSeconds: 45 })).toMatchObject({ cpuSeconds: 45, fileBytes: 5001 });
    expect(prlimitArguments(processLimitsOf({ timeoutMs: 10_000, maxOutputBytes: 9, cpuSeconds: 5 }))).toEqual(['--as=3221225472', '--cpu=5:7', '--fsize=10', '--nproc=256', '--nofile=1024', '--core=0']);
  });

  it('reads an end by a limit or by the sandbox as its failure type, and leaves an engine’s own failure alone', () => {
    const limits = processLimitsOf({ timeoutMs: 10_000, maxOutputBytes: 99 });
    expect(limitFailure(128 + 31, '', limits)?.failureType).toBe('security_rejected');
    expect(limitFailure(128 + 24, '', limits)?.failureType).toBe('timeout');
    expect(limitFailure(128 + 25, '', limits)?.failureType).toBe('file_too_large');
    expect(limitFailure(1, 'OSError: [Errno 27] File too large', limits)?.failureType).toBe('file_too_large');
    for (const message of ['Error: /VMerror in --string--', "terminate called after throwing an instance of 'std::bad_alloc'", 'MemoryError', 'FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory', 'pandoc: heap overflow']) {
      expect(limitFailure(1, message, limits)?.failureType, message).toBe('file_too_large');
    }
    expect(limitFailure(1, 'Error: the file is not a PDF', limits)).toBeUndefined();
    expect(limitFailure(0, 'MemoryError', limits)).toBeUndefined();
  });
});

describe('sandbox users', () => {
  const lending = () => mkdtempSync(join(tmpdir(), 'fileshift-lending-'));

  it('lends each uid to one sandbox at a time, round robin, and says when all are lent', () => {
    const users = new SandboxUsers({ first: 100, count: 3 }, lending());
    expect([users.lend(), users.lend()]).toEqual([100, 101]);
    users.giveBack(100);
    expect(users.lend()).toBe(102);
    expect(users.lend()).toBe(100);
    expect(() => users.lend()).toThrow('all 3 sandbox users are in use');
    expect(users.inUse).toBe(3);
  });

  it('never lends a uid another lender of the machine holds, and takes over the mark of a lender that died', () => {
    const dir = lending();
    const [one, two] = [new SandboxUsers({ first: 200, count: 4 }, dir), new SandboxUsers({ first: 200, count: 4 }, dir)];
    const lent = [one.lend(), two.lend(), one.lend(), two.lend()];
    expect(new Set(lent).size).toBe(4);
    expect(() => two.lend()).toThrow('all 4 sandbox users are in use');
    one.giveBack(lent[0]!);
    expect(two.lend()).toBe(lent[0]);
    // A mark left by a process that no longer runs.
    const dead = Number(execFileSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }));
    const third = new SandboxUsers({ first: 300, count: 1 }, dir);
    writeFileSync(join(dir, '300'), String(dead));
    expect(third.lend()).toBe(300);
    expect(readFileSync(join(dir, '300'), 'utf8')).toBe(String(process.pid));
  });
});

describe('/proc/<pid>/stat', () => {
  it('reads the parent and the CPU ticks, whatever the process is called', () => {
    expect(parseProcessStat('4242 (soffice.bin) S 4200 4242 4242 0 -1 4194560 100 0 0 0 250 50 0 0 30 10 12 0 1 0 0')).toEqual({ ppid: 4200, ticks: 300 });
    expect(parseProcessStat('7 (a (b) c) R 1 7 7 0 -1 0 0 0 0 0 3 4 0 0 20 0 1 0 1 0 0')).toEqual({ ppid: 1, ticks: 7 });
  });

  it('reads the proportional resident size of smaps_rollup, else the resident size of status', () => {
    expect(parseResidentBytes('55a0-7ffe ---p 00000000 00:00 0 [rollup]\nRss:              204800 kB\nPss:              150000 kB\nPss_Anon:          90000 kB\n')).toBe(150_000 * 1024);
    expect(parseResidentBytes('Name:\tsoffice.bin\nVmRSS:\t  204800 kB\nRssAnon:\t 90000 kB\n')).toBe(204_800 * 1024);
    expect(parseResidentBytes('')).toBe(0);
  });
});
