import { constants } from 'node:os';
import { ConversionError } from '../conversion-error.js';
import type { ProcessLimits } from './process-limits.js';

/** How engines say an allocation failed: C and C++ runtimes, Python, Haskell's RTS, Ghostscript, ImageMagick, Node. */
const OUT_OF_MEMORY = /out of memory|cannot allocate memory|std::bad_alloc|\bMemoryError\b|\bVMerror\b|heap overflow|memory allocation failed|MemoryAllocationFailed|heap out of memory|failed to allocate/i;

/**
 * Pure: the failure a sandboxed engine's end stands for, when it was a limit or the sandbox that ended it — an exit
 * status of 128 + the signal (bubblewrap's convention, as a shell's). A refused system call (SIGSYS from seccomp)
 * is `security_rejected`; the CPU limit (SIGXCPU) `timeout`; the file size limit (SIGXFSZ, EFBIG) and a failed
 * allocation under the memory limit `file_too_large`. Undefined: the engine's own failure, or none.
 */
export function limitFailure(exitCode: number, stderrTail: string, limits: ProcessLimits): ConversionError | undefined {
  if (exitCode === 0) return undefined;
  const signal = exitCode - 128;
  if (signal === constants.signals.SIGSYS) {
    return new ConversionError('security_rejected', 'The engine tried something this service never allows a conversion (a network connection or a system call outside its sandbox); the file was refused.', false, stderrTail);
  }
  if (signal === constants.signals.SIGXCPU) {
    return new ConversionError('timeout', `The conversion used more than ${limits.cpuSeconds} s of processor time.`, false, stderrTail);
  }
  // SIGXFSZ, or EFBIG where the engine ignores the signal (Python does).
  if (signal === constants.signals.SIGXFSZ || /\bFile too large\b/.test(stderrTail)) {
    return new ConversionError('file_too_large', `The conversion wrote a file larger than ${limits.fileBytes - 1} bytes.`, false, stderrTail);
  }
  if (OUT_OF_MEMORY.test(stderrTail)) {
    return new ConversionError('file_too_large', `The conversion needed more than the ${Math.round(limits.memoryBytes / 1024 ** 2)} MB of memory an engine may use.`, false, stderrTail);
  }
  return undefined;
}
