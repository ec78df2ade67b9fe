import type { EngineLimits } from '../engine-descriptor.js';

/** The resource limits of one sandboxed engine process, resolved. */
export interface ProcessLimits {
  memoryBytes: number;
  /** What the sandbox's processes may hold resident all together (watched, not a kernel limit). */
  residentBytes: number;
  cpuSeconds: number;
  processes: number;
  openFiles: number;
  fileBytes: number;
}

const GIB = 1024 ** 3;
/** Enough for every engine's normal work here (LibreOffice's soffice.bin maps about 1.2 GB, calibre about 1.5 GB). */
export const DEFAULT_MEMORY_BYTES = 3 * GIB;
/** Far above what any engine holds converting a file within the upload limit here (a warm LibreOffice about 300 MB). */
export const DEFAULT_RESIDENT_BYTES = 2 * GIB;
export const DEFAULT_PROCESSES = 256;
export const DEFAULT_OPEN_FILES = 1024;
/** CPU time is counted over all threads: without a limit of its own, an engine may use two cores for its whole time limit. */
const CPU_SECONDS_PER_WALL_SECOND = 2;

/** Pure: an engine's limits with the defaults filled in. */
export function processLimitsOf(limits: EngineLimits): ProcessLimits {
  return {
    memoryBytes: limits.memoryBytes ?? DEFAULT_MEMORY_BYTES,
    residentBytes: limits.residentBytes ?? Math.min(limits.memoryBytes ?? DEFAULT_RESIDENT_BYTES, DEFAULT_RESIDENT_BYTES),
    cpuSeconds: limits.cpuSeconds ?? Math.ceil((limits.timeoutMs / 1000) * CPU_SECONDS_PER_WALL_SECOND),
    processes: limits.processes ?? DEFAULT_PROCESSES,
    openFiles: limits.openFiles ?? DEFAULT_OPEN_FILES,
    // One past the largest output allowed: writing the largest allowed file still succeeds.
    fileBytes: limits.fileBytes ?? Math.max(limits.maxOutputBytes, limits.maxExpandedBytes ?? 0) + 1,
  };
}

/** Seconds between the soft CPU limit (SIGXCPU, which ends the process) and the hard one (SIGKILL, if it ignored that). */
const CPU_GRACE_SECONDS = 2;

/**
 * Pure: util-linux `prlimit` arguments that set the limits and then run the command (inside the sandbox,
 * after its user namespace exists, so the process count is the sandbox's own). No core files: a crash must not
 * write the engine's memory anywhere, nor hand it to the host's core handler.
 */
export function prlimitArguments(limits: ProcessLimits): string[] {
  return [
    `--as=${limits.memoryBytes}`,
    `--cpu=${limits.cpuSeconds}:${limits.cpuSeconds + CPU_GRACE_SECONDS}`,
    `--fsize=${limits.fileBytes}`,
    `--nproc=${limits.processes}`,
    `--nofile=${limits.openFiles}`,
    '--core=0',
  ];
}
