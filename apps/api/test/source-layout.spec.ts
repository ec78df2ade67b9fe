import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));

/** Every source file of the service (specs are not part of its layering). */
function sourceFiles(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [path] : [];
  });
}

const folderOf = (file: string) => relative(SRC, dirname(file)) || '.';

/** Folder → the folders its files import (relative imports, type-only ones included), with one importing file each. */
function folderImports(): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>();
  for (const file of sourceFiles()) {
    const from = folderOf(file);
    const edges = graph.get(from) ?? graph.set(from, new Map()).get(from)!;
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)) {
      const to = folderOf(resolve(dirname(file), specifier!));
      if (to !== from && !edges.has(to)) edges.set(to, relative(SRC, file));
    }
  }
  return graph;
}

/** The import cycles between folders, each as its folders in order and the file behind each step. */
function cycles(graph: Map<string, Map<string, string>>): string[] {
  const found: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (folder: string) => {
    state.set(folder, 'open');
    path.push(folder);
    for (const [next, file] of graph.get(folder) ?? []) {
      if (state.get(next) === 'open') {
        const loop = path.slice(path.indexOf(next));
        found.push(`${[...loop, next].join(' → ')} (${file} imports ${next})`);
      } else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(folder, 'done');
  };
  for (const folder of [...graph.keys()].sort()) if (!state.has(folder)) visit(folder);
  return found;
}

/** What the rest of the service may import of the conversion-jobs core: its service, module, record, errors and pure naming rules. */
const CORE_PUBLIC = ['conversion-jobs.service.ts', 'conversion-jobs.module.ts', 'conversion-job.entity.ts', 'conversion-start.error.ts', 'job-id.ts', 'result-files.ts'].map(
  (file) => `conversion-jobs/${file}`,
);

/** Imports of the core's inner files from outside it (the app's composition root, which lists entities and modules, aside). */
function coreInternalsReached(): string[] {
  return sourceFiles()
    .filter((file) => !['.', 'conversion-jobs'].includes(folderOf(file).split('/')[0]!))
    .flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/from\s*'(\.{1,2}\/[^']+)'/g)]
        .map(([, specifier]) => relative(SRC, resolve(dirname(file), specifier!)).replace(/\.js$/, '.ts'))
        .filter((target) => target.startsWith('conversion-jobs/') && !CORE_PUBLIC.includes(target))
        .map((target) => `${relative(SRC, file)} imports ${target}`),
    );
}

describe('the layout of apps/api/src', () => {
  it('has folders that import only folders below them: no import cycle between folders', () => {
    expect(cycles(folderImports())).toEqual([]);
  });

  it('has the APIs and maintenance reach the conversion-jobs core through its public files only', () => {
    expect(coreInternalsReached()).toEqual([]);
    expect(sourceFiles().some((file) => readFileSync(file, 'utf8').includes("'../conversion-jobs/conversion-jobs.service.js'"))).toBe(true);
  });

  it('finds the cycles it is meant to find (the check itself)', () => {
    const graph = new Map([
      ['a', new Map([['b', 'a/x.ts']])],
      ['b', new Map([['c', 'b/y.ts']])],
      ['c', new Map([['a', 'c/z.ts']])],
      ['d', new Map([['a', 'd/w.ts']])],
    ]);
    expect(cycles(graph)).toEqual(['a → b → c → a (c/z.ts imports a)']);
  });

  it('reads the imports of the real tree (the check is not vacuous)', () => {
    const graph = folderImports();
    expect(graph.size).toBeGreaterThan(10);
    expect([...graph.values()].reduce((sum, edges) => sum + edges.size, 0)).toBeGreaterThan(20);
  });
});
