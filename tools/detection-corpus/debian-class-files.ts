/** Java class files as Debian ships them: inside the jars in /usr/share/java (loose .class files are rare). */
import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { attempt, keep, run, work } from './corpus-context.js';

const SCRIPT = fileURLToPath(new URL('./debian-class-files.py', import.meta.url));
const JARS = '/usr/share/java';

export function debianClassFiles(count = 4): void {
  attempt('class files from Debian jars', () => {
    const jars = readdirSync(JARS, { withFileTypes: true }).filter((e) => e.isFile() && e.name.endsWith('.jar')).map((e) => e.name).sort();
    const chosen = Array.from({ length: Math.min(count, jars.length) }, (_, i) => join(JARS, jars[Math.floor((i * jars.length) / count)]!));
    const outdir = join(work, 'debian-classes');
    mkdirSync(outdir, { recursive: true });
    for (const line of run('python3', [SCRIPT, outdir, ...chosen]).toString('utf8').trim().split('\n').filter(Boolean)) {
      const [jar, entry, file] = line.split('\t');
      keep('class', file!, `debian:${jar}!/${entry}`);
    }
  });
}
