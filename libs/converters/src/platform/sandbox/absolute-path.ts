import { tmpdir } from 'node:os';
import { isAbsolute, resolve } from 'node:path';

/**
 * Paths the sandbox, the runner and the Node host are given must be absolute. bubblewrap resolves a bind's source
 * against the old root, not the working directory, and a sandboxed process reads a relative path against its own:
 * a relative path fails the sandbox or points somewhere else. The configuration resolves every path once; this
 * refuses whatever slips past it, loudly, as the bug it is.
 */
export function assertAbsolute(path: string, what: string): string {
  if (!isAbsolute(path)) throw new Error(`${what} must be an absolute path, not ${JSON.stringify(path)}: resolve it where the configuration is read`);
  return path;
}

/** The machine's temporary directory, absolute even when TMPDIR is a relative path. */
export const machineTempDir = (): string => resolve(tmpdir());

/** A warm engine's work root: the one given, which must be absolute, or the machine's temporary directory. */
export const workRootOf = (workRoot: string | undefined): string => (workRoot === undefined ? machineTempDir() : assertAbsolute(workRoot, 'an engine\'s work root'));
