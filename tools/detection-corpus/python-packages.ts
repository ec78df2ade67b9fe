/** ZIP-based packages written by Python's zipfile (see python-packages.py for the layouts and why). */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { attempt, keep, run, work } from './corpus-context.js';

const SCRIPT = fileURLToPath(new URL('./python-packages.py', import.meta.url));

export function pythonPackages(): void {
  attempt('python zipfile packages', () => {
    const outdir = join(work, 'python-packages');
    mkdirSync(outdir, { recursive: true });
    const listing = run('python3', [SCRIPT, outdir]).toString('utf8').trim().split('\n');
    for (const line of listing) {
      const [format, name] = line.split('\t');
      keep(format!, join(outdir, name!), 'python-zipfile');
    }
  });
}
