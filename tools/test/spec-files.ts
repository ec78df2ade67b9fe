import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Where each project keeps its Vitest files (vitest.shared.ts: `src/**` and `test/**`). */
const SPEC_ROOTS = ['src', 'test'];
const SPEC_FILE = /\.spec\.ts$/;

/** Every `*.spec.ts` of a project, relative to it, sorted. */
export function specFilesOf(projectDir: string): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules' && entry.name !== 'dist') walk(path);
      } else if (SPEC_FILE.test(entry.name)) files.push(relative(projectDir, path));
    }
  };
  for (const root of SPEC_ROOTS) walk(join(projectDir, root));
  return files.sort();
}

/** A glob of `*` (within a path segment) and `**` (any segments) as a regular expression of whole paths. */
export function globPattern(glob: string): RegExp {
  let source = '';
  for (let i = 0; i < glob.length; i++) {
    const char = glob[i]!;
    if (char === '*' && glob[i + 1] === '*') {
      // `**/` matches no segment or several.
      source += glob[i + 2] === '/' ? '(?:.*/)?' : '.*';
      i += glob[i + 2] === '/' ? 2 : 1;
    } else if (char === '*') source += '[^/]*';
    else source += char.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

export const matchesAny = (file: string, globs: readonly string[]) => globs.some((glob) => globPattern(glob).test(file));
