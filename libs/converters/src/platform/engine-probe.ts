import { ConversionError } from './conversion-error.js';
import type { EngineAvailability } from './engine-runtime.js';
import { CHECK_PATIENCE_MS } from './sandbox/check-patience.js';
import type { SandboxedProcessRunner, SandboxedResult } from './sandboxed-process.runner.js';

/** `nice` exits 127 when the engine binary is not there. */
export const COMMAND_NOT_FOUND = 127;

export interface VersionCheck {
  command: string;
  /** The switch that prints the version and exits 0 (`-v`, `--version`). */
  args: readonly string[];
}

/**
 * Runs each binary's version switch through the runner: the engine is available when every one answers.
 * The version is the first line the first binary printed (poppler prints it on stderr).
 */
export async function probeVersions(runner: SandboxedProcessRunner, checks: readonly VersionCheck[], debianPackages: readonly string[]): Promise<EngineAvailability> {
  const install = `install the Debian package${debianPackages.length > 1 ? 's' : ''} ${debianPackages.join(' ')} (apt-get install ${debianPackages.join(' ')})`;
  let version: string | undefined;
  for (const check of checks) {
    let result: SandboxedResult;
    try {
      result = await runner.run({ command: check.command, args: check.args, timeoutMs: CHECK_PATIENCE_MS });
    } catch (error) {
      return { available: false, problem: `${check.command} did not answer (${(error as Error).message}); ${install}` };
    }
    if (result.exitCode === COMMAND_NOT_FOUND) return { available: false, problem: `${check.command} is not installed: ${install}` };
    if (result.exitCode !== 0) return { available: false, problem: `${check.command} ${check.args.join(' ')} exited with ${result.exitCode}; ${install}` };
    version ??= firstLine(result.stdout) ?? firstLine(result.stderrTail);
  }
  return { available: true, version };
}

/** A binary that went missing after the probe: retryable, another worker may have it. */
export function throwIfEngineMissing(result: SandboxedResult, engine: string): void {
  if (result.exitCode === COMMAND_NOT_FOUND) throw new ConversionError('provider_error', `The ${engine} engine is not available.`, true, result.stderrTail);
}

const firstLine = (text: string) => text.split('\n').map((line) => line.trim()).find((line) => line.length > 0);
