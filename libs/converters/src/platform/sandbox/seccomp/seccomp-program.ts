import type { SeccompAction, SyscallRule } from './seccomp-rules.js';
import { AUDIT_ARCH, type SeccompArch, SYSCALL_NUMBERS } from './syscall-table.js';

// Classic BPF, as seccomp runs it (<linux/filter.h>, <linux/seccomp.h>).
const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const JGE_K = 0x35;
const JSET_K = 0x45;
const RET_K = 0x06;

const RET_KILL_PROCESS = 0x80000000;
const RET_ERRNO = 0x00050000;
const RET_ALLOW = 0x7fff0000;
const EPERM = 1;
const ENOSYS = 38;

// struct seccomp_data: int nr; __u32 arch; __u64 instruction_pointer; __u64 args[6] (little-endian: low word first).
const NR_OFFSET = 0;
const ARCH_OFFSET = 4;
const FIRST_ARGUMENT_LOW_OFFSET = 16;
/** x86_64 numbers with this bit belong to the x32 ABI, another way in. */
const X32_SYSCALL_BIT = 0x40000000;

interface Instruction {
  code: number;
  jt: number;
  jf: number;
  k: number;
}

const statement = (code: number, k: number): Instruction => ({ code, jt: 0, jf: 0, k });
const jump = (code: number, k: number, jt: number, jf: number): Instruction => ({ code, jt, jf, k });
const returning = (value: number) => statement(RET_K, value);

export function actionValue(action: SeccompAction): number {
  switch (action) {
    case 'kill':
      return RET_KILL_PROCESS;
    case 'enosys':
      return RET_ERRNO | ENOSYS;
    case 'eperm':
      return RET_ERRNO | EPERM;
  }
}

/** The instructions of one rule, entered with the call's number loaded; each ends in a return or falls through. */
function ruleInstructions(number: number, rule: SyscallRule): Instruction[] {
  const action = returning(actionValue(rule.action));
  const condition = rule.firstArgument;
  if (!condition) return [jump(JEQ_K, number, 0, 1), action];
  const loadArgument = statement(LD_W_ABS, FIRST_ARGUMENT_LOW_OFFSET);
  if ('forbiddenBits' in condition) {
    // Any forbidden bit set: the action; none: allowed.
    return [jump(JEQ_K, number, 0, 4), loadArgument, jump(JSET_K, condition.forbiddenBits, 0, 1), action, returning(RET_ALLOW)];
  }
  const values = condition.allowedValues;
  // One of the allowed values: allowed; any other: the action.
  const checks = values.map((value, index) => jump(JEQ_K, value, values.length - index, 0));
  const body = [loadArgument, ...checks, action, returning(RET_ALLOW)];
  return [jump(JEQ_K, number, 0, body.length), ...body];
}

/**
 * Pure: a seccomp filter as the bytes of its `struct sock_filter` array (what bubblewrap's `--seccomp FD`
 * reads). A call from another architecture (i386 through int 0x80, x32) kills the process; each rule's call
 * gets its action; everything else is allowed.
 */
export function compileSeccompFilter(arch: SeccompArch, rules: readonly SyscallRule[]): Buffer {
  const program: Instruction[] = [
    statement(LD_W_ABS, ARCH_OFFSET),
    jump(JEQ_K, AUDIT_ARCH[arch], 1, 0),
    returning(RET_KILL_PROCESS),
    statement(LD_W_ABS, NR_OFFSET),
  ];
  if (arch === 'x86_64') program.push(jump(JGE_K, X32_SYSCALL_BIT, 0, 1), returning(RET_KILL_PROCESS));
  for (const rule of rules) {
    const number = (SYSCALL_NUMBERS[rule.syscall] as Partial<Record<SeccompArch, number>>)[arch];
    if (number !== undefined) program.push(...ruleInstructions(number, rule));
  }
  program.push(returning(RET_ALLOW));
  // BPF_MAXINSNS: the kernel refuses longer programs.
  if (program.length > 4096) throw new Error(`a seccomp program of ${program.length} instructions is too long`);
  const bytes = Buffer.alloc(program.length * 8);
  program.forEach(({ code, jt, jf, k }, index) => {
    bytes.writeUInt16LE(code, index * 8);
    bytes.writeUInt8(jt, index * 8 + 2);
    bytes.writeUInt8(jf, index * 8 + 3);
    bytes.writeUInt32LE(k >>> 0, index * 8 + 4);
  });
  return bytes;
}
