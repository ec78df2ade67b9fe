import { access, readFile, realpath } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/**
 * The directories of an npm package and of every dependency it has here (optional ones that are installed
 * included: sharp's native build and libvips), found as Node finds them from `from` (node_modules upwards): what a
 * sandbox must bind read-only for that package to load, and nothing else of node_modules.
 */
export async function packageClosure(from: string, name: string): Promise<string[]> {
  const found = new Set<string>();
  const visit = async (fromDir: string, packageName: string, optional: boolean): Promise<void> => {
    const dir = await packageDirectory(fromDir, packageName);
    if (!dir) {
      if (optional) return;
      throw new Error(`${packageName} is not installed (looked upwards from ${fromDir})`);
    }
    const real = await realpath(dir);
    if (found.has(real)) return;
    found.add(real);
    const json = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as { dependencies?: Record<string, string>; optionalDependencies?: Record<string, string> };
    for (const dependency of Object.keys(json.dependencies ?? {})) await visit(dir, dependency, false);
    for (const dependency of Object.keys(json.optionalDependencies ?? {})) await visit(dir, dependency, true);
  };
  await visit(dirname(from), name, false);
  return [...found];
}

/** node_modules/<name> in `dir` or the nearest directory above it that has one. */
async function packageDirectory(dir: string, name: string): Promise<string | undefined> {
  for (let current = dir; ; current = dirname(current)) {
    const candidate = join(current, 'node_modules', name);
    if (await access(join(candidate, 'package.json')).then(() => true, () => false)) return candidate;
    if (dirname(current) === current) return undefined;
  }
}
