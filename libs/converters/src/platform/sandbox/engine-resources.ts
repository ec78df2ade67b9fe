import { chmod, mkdtemp } from 'node:fs/promises';
import { join } from 'node:path';
import { machineTempDir } from './absolute-path.js';

/**
 * A directory for files an engine reads beside its input (its security policy, a reference document): readable by
 * every sandbox user, and bound read-only into the engine's sandboxes (`readOnlyPaths`), never writable there.
 */
export async function engineResourceDirectory(engine: string): Promise<string> {
  const dir = await mkdtemp(join(machineTempDir(), `fileshift-${engine}-`));
  await chmod(dir, 0o755);
  return dir;
}
