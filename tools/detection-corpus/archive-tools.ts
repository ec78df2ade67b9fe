/** Archives and compressed files from the command-line tools (zip, tar, gzip, 7z, zstd, lz4, ar, cpio, sqlite3). */
import { copyFileSync, existsSync, mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { attempt, FIXED_TIME, keep, run, work } from './corpus-context.js';

/** p7zip's 7z or, where only the upstream 7-Zip package is installed, 7zz. */
const SEVEN_ZIP = ['/usr/bin/7z', '/usr/bin/7zz'].find((path) => existsSync(path)) ?? '7z';

const PAYLOADS = ['/usr/share/common-licenses/GPL-3', '/usr/share/common-licenses/Apache-2.0', '/etc/services'];

/** Writes a tool's stdout to a scratch file. */
const piped = (out: string, command: string, args: string[]) => () => writeFileSync(join(work, out), run(command, args));

export function archiveTools(): void {
  for (const [index, payload] of PAYLOADS.entries()) {
    const name = `payload-${index}.txt`;
    copyFileSync(payload, join(work, name));
    utimesSync(join(work, name), FIXED_TIME, FIXED_TIME);
    const steps: Array<[format: string, producer: string, out: string, make: () => void]> = [
      ['zip', 'zip', `a-${index}.zip`, () => run('zip', ['-q', `a-${index}.zip`, name])],
      ['zip', 'zip', `stored-${index}.zip`, () => run('zip', ['-q', '-0', '-X', `stored-${index}.zip`, name])],
      ['zip', '7z', `7z-${index}.zip`, () => run(SEVEN_ZIP, ['a', '-bd', '-tzip', `7z-${index}.zip`, name])],
      ['tar', 'tar', `a-${index}.tar`, () => run('tar', ['-cf', `a-${index}.tar`, name])],
      ['tar', 'tar', `posix-${index}.tar`, () => run('tar', ['--format=posix', '-cf', `posix-${index}.tar`, name])],
      ['tar', 'tar', `v7-${index}.tar`, () => run('tar', ['--format=v7', '-cf', `v7-${index}.tar`, name])],
      ['tgz', 'tar', `a-${index}.tar.gz`, () => run('tar', ['-czf', `a-${index}.tar.gz`, name])],
      ['tgz', 'tar', `b-${index}.tgz`, () => run('tar', ['-czf', `b-${index}.tgz`, name])],
      ['tbz2', 'tar', `a-${index}.tar.bz2`, () => run('tar', ['-cjf', `a-${index}.tar.bz2`, name])],
      ['txz', 'tar', `a-${index}.tar.xz`, () => run('tar', ['-cJf', `a-${index}.tar.xz`, name])],
      ['gz', 'gzip', `a-${index}.txt.gz`, piped(`a-${index}.txt.gz`, 'gzip', ['-c', name])],
      ['gz', 'gzip', `n-${index}.txt.gz`, piped(`n-${index}.txt.gz`, 'gzip', ['-n', '-9', '-c', name])],
      ['bz2', 'bzip2', `a-${index}.txt.bz2`, piped(`a-${index}.txt.bz2`, 'bzip2', ['-c', name])],
      ['xz', 'xz', `a-${index}.txt.xz`, piped(`a-${index}.txt.xz`, 'xz', ['-c', name])],
      ['xz', 'xz', `e-${index}.txt.xz`, piped(`e-${index}.txt.xz`, 'xz', ['-e', '--check=sha256', '-c', name])],
      ['7z', '7z', `a-${index}.7z`, () => run(SEVEN_ZIP, ['a', '-bd', `a-${index}.7z`, name])],
      ['7z', '7z', `bzip-${index}.7z`, () => run(SEVEN_ZIP, ['a', '-bd', '-m0=BZip2', `bzip-${index}.7z`, name])],
      ['zst', 'zstd', `a-${index}.txt.zst`, () => run('zstd', ['-q', '-f', name, '-o', `a-${index}.txt.zst`])],
      ['lz4', 'lz4', `a-${index}.txt.lz4`, () => run('lz4', ['-q', '-f', name, `a-${index}.txt.lz4`])],
      ['ar', 'ar', `a-${index}.a`, () => run('ar', ['rc', `a-${index}.a`, name])],
      // libarchive's bsdtar writes the formats no other installed tool does (cpio, ISO 9660) and its own zip/7z/tar.
      ['cpio', 'bsdtar', `newc-${index}.cpio`, () => run('bsdtar', ['-cf', `newc-${index}.cpio`, '--format', 'newc', name])],
      ['cpio', 'bsdtar', `odc-${index}.cpio`, () => run('bsdtar', ['-cf', `odc-${index}.cpio`, '--format', 'odc', name])],
      ['iso', 'bsdtar', `a-${index}.iso`, () => run('bsdtar', ['-cf', `a-${index}.iso`, '--format', 'iso9660', name])],
      ['7z', 'bsdtar', `bsd-${index}.7z`, () => run('bsdtar', ['-cf', `bsd-${index}.7z`, '--format', '7zip', name])],
      ['zip', 'bsdtar', `bsd-${index}.zip`, () => run('bsdtar', ['-cf', `bsd-${index}.zip`, '--format', 'zip', name])],
      ['tar', 'bsdtar', `pax-${index}.tar`, () => run('bsdtar', ['-cf', `pax-${index}.tar`, '--format', 'pax', name])],
      ['ar', 'bsdtar', `bsd-${index}.a`, () => run('bsdtar', ['-cf', `bsd-${index}.a`, '--format', 'arbsd', name])],
      ['jar', 'zip', `a-${index}.jar`, () => {
        mkdirSync(join(work, `jar${index}`, 'META-INF'), { recursive: true });
        writeFileSync(join(work, `jar${index}`, 'META-INF', 'MANIFEST.MF'), 'Manifest-Version: 1.0\n');
        run('zip', ['-q', '-r', join(work, `a-${index}.jar`), 'META-INF'], { cwd: join(work, `jar${index}`) });
      }],
      ['cbz', 'zip', `a-${index}.cbz`, () => run('zip', ['-q', `a-${index}.cbz`, `image-${index}.jpg`])],
      ['sqlite', 'sqlite3', `a-${index}.sqlite`, () => run('sqlite3', [`a-${index}.sqlite`, `create table t${index}(a, b); insert into t${index} values (1, 'x');`])],
    ];
    for (const [format, producer, out, make] of steps) attempt(`${producer} ${format}`, () => { make(); keep(format, join(work, out), producer); });
  }
}

/** Debian packages from apt's cache, spread over the sorted list. */
export function aptCachePackages(count = 6): void {
  const dir = '/var/cache/apt/archives';
  const debs = readdirSync(dir).filter((name) => name.endsWith('.deb')).sort();
  for (let i = 0; i < Math.min(count, debs.length); i++) {
    const deb = debs[Math.floor((i * debs.length) / count)]!;
    keep('deb', join(dir, deb), `debian:${join(dir, deb)}`, basename(deb));
  }
}
