import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getFormat } from '@fileshift/formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RATIO_FLOOR_BYTES } from './archive-listing.js';
import { ArchivesRuntime } from './archives.runtime.js';
import { ARCHIVE_FORMATS, ARCHIVES_DESCRIPTOR } from './archives.descriptor.js';
import {
  ARCHIVE_SAMPLE_CONTENTS,
  ARCHIVE_SAMPLE_FORMATS,
  type ArchiveContents,
  expectArchive,
  gnuTarEntries,
  readArchive,
  writeArchiveSample,
} from '../../../testing/archive-samples.js';
import { convertStep, expectFailure, testContext, leftovers } from '../../../test/support/test-context.js';

const workRoot = mkdtempSync(join(tmpdir(), 'fileshift-archives-work-'));
// The test's files live in the engine's scratch directory, as a job's input does: only it is bound into the sandbox.
const dir = mkdtempSync(join(workRoot, 'files-'));
/** The job's scratch directory: every run must leave it empty. */
/** Outside any job's scratch directory: where hostile entries aim. */
const outside = mkdtempSync(join(tmpdir(), 'fileshift-archives-outside-'));
afterAll(() => {
  for (const path of [dir, workRoot, outside]) rmSync(path, { recursive: true, force: true });
});

const python = (script: string, ...args: string[]) => execFileSync('/usr/bin/python3', ['-c', script, ...args], { encoding: 'utf8' });
/** Every path below `root`, relative. */
const allPaths = (root: string): string[] => readdirSync(root, { recursive: true }).map(String).sort();

/** A tar written by Python's tarfile, entry by entry: [name, type, linkname or data]. */
function pythonTar(path: string, entries: Array<[string, 'file' | 'symlink' | 'hardlink' | 'chr' | 'fifo' | 'dir', string?]>): string {
  const script = `
import io, json, sys, tarfile
TYPES = {'file': tarfile.REGTYPE, 'symlink': tarfile.SYMTYPE, 'hardlink': tarfile.LNKTYPE, 'chr': tarfile.CHRTYPE, 'fifo': tarfile.FIFOTYPE, 'dir': tarfile.DIRTYPE}
with tarfile.open(sys.argv[1], 'w', format=tarfile.PAX_FORMAT) as t:
    for name, kind, extra in json.loads(sys.argv[2]):
        info = tarfile.TarInfo(name)
        info.type = TYPES[kind]
        data = None
        if kind == 'file':
            data = (extra or '').encode()
            info.size = len(data)
        elif kind in ('symlink', 'hardlink'):
            info.linkname = extra
        elif kind == 'chr':
            info.devmajor, info.devminor = 1, 3
        t.addfile(info, io.BytesIO(data) if data is not None else None)
`;
  python(script, path, JSON.stringify(entries.map(([name, kind, extra]) => [name, kind, extra ?? null])));
  return path;
}

/** A zip written by Python's zipfile: [name, data, unix mode] (a mode 0o120777 makes a symbolic link). */
function pythonZip(path: string, entries: Array<[string, string, number?]>): string {
  const script = `
import json, sys, zipfile
with zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED) as z:
    for name, data, mode in json.loads(sys.argv[2]):
        info = zipfile.ZipInfo(name)
        info.create_system = 3
        info.external_attr = (mode or 0o100644) << 16
        z.writestr(info, data)
`;
  python(script, path, JSON.stringify(entries.map(([name, data, mode]) => [name, data, mode ?? null])));
  return path;
}

describe('ArchivesRuntime (Debian package libarchive-tools: bsdtar)', () => {
  const runtime = new ArchivesRuntime();
  const samples = new Map<string, string>();

  beforeAll(async () => {
    const probe = await runtime.probe();
    if (!probe.available) {
      console.error(`\n*** ENGINE MISSING: bsdtar (${probe.problem}). Install the Debian package libarchive-tools; these tests FAIL without it. ***\n`);
      return;
    }
    for (const format of ARCHIVE_SAMPLE_FORMATS) samples.set(format, writeArchiveSample(format, join(dir, `sample.${format}`)));
  });

  it('is installed on this machine', async () => {
    const probe = await runtime.probe();
    expect(probe.available).toBe(true);
    expect(probe.version).toMatch(/^bsdtar 3\./);
  });

  it('offers zip 7z tar tgz tbz2 txz → each other (30 pairs), catalogue ids, with archive limits', () => {
    expect(ARCHIVES_DESCRIPTOR.pairs).toHaveLength(30);
    for (const format of ARCHIVE_FORMATS) expect(getFormat(format)?.category, format).toBe('archive');
    expect(ARCHIVES_DESCRIPTOR.limits).toMatchObject({ maxEntries: 10_000, maxExpandedBytes: 1024 ** 3, maxCompressionRatio: 200, maxPathDepth: 64 });
  });

  it('converts every archive format into every other, contents byte for byte (read by Python, 7-Zip, GNU tar), nothing left behind', async () => {
    for (const from of ARCHIVE_SAMPLE_FORMATS) {
      for (const to of ARCHIVE_SAMPLE_FORMATS.filter((format) => format !== from)) {
        const progress: number[] = [];
        const [out] = (await convertStep(runtime, { inputPath: samples.get(from)!, from, to }, dir, { workDir: workRoot, onProgress: (p) => progress.push(p) })) as [string];
        expect(out.endsWith(`/output.${to}`)).toBe(true);
        expectArchive(out, to);
        if (to !== 'zip' && to !== '7z') expect(gnuTarEntries(out).sort()).toEqual(Object.keys(ARCHIVE_SAMPLE_CONTENTS).sort());
        expect(progress.at(-1)).toBe(100);
        expect(progress).toEqual([...progress].sort((a, b) => a - b));
        expect(leftovers(workRoot, dir)).toEqual([]);
      }
    }
  });

  it('re-packs with relative entries in sorted order, directories first, owned by uid 0 without names, modes 644/755', async () => {
    const [tar] = (await convertStep(runtime, { inputPath: samples.get('zip')!, from: 'zip', to: 'tar' }, dir, { workDir: workRoot })) as [string];
    const members = JSON.parse(
      python('import json, sys, tarfile\nprint(json.dumps([[m.name, m.uid, m.gid, m.uname, m.gname, oct(m.mode), m.type.decode()] for m in tarfile.open(sys.argv[1])]))', tar),
    ) as Array<[string, number, number, string, string, string, string]>;
    expect(members.map(([name]) => name)).toEqual(['docs', 'docs/deeper', 'docs/deeper/data.bin', 'docs/notes.md', 'readme.txt']);
    for (const [, uid, gid, uname, gname] of members) expect([uid, gid, uname, gname]).toEqual([0, 0, '', '']);
    expect(members.map(([, , , , , mode]) => mode)).toEqual(['0o755', '0o755', '0o644', '0o644', '0o644']);
    // The same entries give the same bytes (no time stamp in the gzip header, stable order).
    const once = await convertStep(runtime, { inputPath: tar, from: 'tar', to: 'tgz' }, dir, { workDir: workRoot });
    const twice = await convertStep(runtime, { inputPath: tar, from: 'tar', to: 'tgz' }, dir, { workDir: workRoot });
    expect(readFileSync(once[0]!).equals(readFileSync(twice[0]!))).toBe(true);
  });

  it('survives a round trip zip → 7z → txz → tbz2 → tgz → tar → zip byte for byte, an executable staying executable', async () => {
    const contents: ArchiveContents = { ...ARCHIVE_SAMPLE_CONTENTS, 'run.sh': Buffer.from('#!/bin/sh\necho hi\n') };
    const zip = writeArchiveSample('zip', join(dir, 'round.zip'), contents);
    let current = zip;
    const chain = ['zip', '7z', 'txz', 'tbz2', 'tgz', 'tar', 'zip'] as const;
    for (let i = 1; i < chain.length; i++) {
      [current] = (await convertStep(runtime, { inputPath: current, from: chain[i - 1]!, to: chain[i]! }, dir, { workDir: workRoot })) as [string];
      expectArchive(current, chain[i]!, contents);
    }
    expect(leftovers(workRoot, dir)).toEqual([]);
  });

  it('carries names that look like options or inclusions ("-C", "@list"), spaces and a newline as plain names', async () => {
    const contents: ArchiveContents = {
      '-C': Buffer.from('c'), '@list': Buffer.from('at'), '--help': Buffer.from('h'), 'with space.txt': Buffer.from('s'), 'new\nline.txt': Buffer.from('n'), 'sub/': null, 'sub/-x': Buffer.from('x'),
    };
    const tar = writeArchiveSample('tar', join(dir, 'odd-names.tar'), contents);
    const [zip] = (await convertStep(runtime, { inputPath: tar, from: 'tar', to: 'zip' }, dir, { workDir: workRoot })) as [string];
    expectArchive(zip, 'zip', contents);
  });

  it('carries an archive inside the archive as a file, without expanding it', async () => {
    const inner = readFileSync(samples.get('zip')!);
    const contents: ArchiveContents = { 'inner.zip': inner, 'inner.tar.gz': readFileSync(samples.get('tgz')!) };
    const outer = writeArchiveSample('7z', join(dir, 'nested.7z'), contents);
    const [tgz] = (await convertStep(runtime, { inputPath: outer, from: '7z', to: 'tgz' }, dir, { workDir: workRoot })) as [string];
    expectArchive(tgz, 'tgz', contents);
  });

  it('converts an empty archive to an empty archive', async () => {
    const empty = join(dir, 'empty.zip');
    pythonZip(empty, []);
    const [tar] = (await convertStep(runtime, { inputPath: empty, from: 'zip', to: 'tar' }, dir, { workDir: workRoot })) as [string];
    expect(readArchive(tar, 'tar')).toEqual({});
  });

  it('refuses more entries than maxEntries and more bytes than maxExpandedBytes before extracting (file_too_large)', async () => {
    const many = await expectFailure(convertStep(runtime, { inputPath: samples.get('tgz')!, from: 'tgz', to: 'zip' }, dir, testContext(runtime, workRoot, { maxEntries: 4 })), 'file_too_large', dir);
    expect(many.message).toBe('The archive holds more than 4 entries; at most 4 are converted.');
    const big = await expectFailure(convertStep(runtime, { inputPath: samples.get('zip')!, from: 'zip', to: 'tar' }, dir, testContext(runtime, workRoot, { maxExpandedBytes: 500 })), 'file_too_large', dir);
    expect(big.message).toContain('more than 500 bytes');
    expect(leftovers(workRoot, dir)).toEqual([]);
  });

  it('refuses paths nested deeper than maxPathDepth (security_rejected)', async () => {
    const error = await expectFailure(convertStep(runtime, { inputPath: samples.get('txz')!, from: 'txz', to: 'zip' }, dir, testContext(runtime, workRoot, { maxPathDepth: 2 })), 'security_rejected', dir);
    expect(error.message).toBe('Entry 4 of the archive is nested more than 2 directories deep.');
  });

  it('refuses what is not the format claimed, even when bsdtar reads it (an mtree named .zip, a bzip2 tar named .tgz, junk)', async () => {
    // An mtree specification is an "archive" to libarchive whose entries name files on the host.
    const mtree = join(dir, 'spec.zip');
    writeFileSync(mtree, '#mtree\n./passwd type=file contents=/etc/passwd\n');
    expect((await expectFailure(convertStep(runtime, { inputPath: mtree, from: 'zip', to: 'tar' }, dir, { workDir: workRoot }), 'unsupported_or_corrupt_input', dir)).message).toBe(
      'The input is not a ZIP archive: it reads as mtree.',
    );
    const bzipped = await expectFailure(convertStep(runtime, { inputPath: samples.get('tbz2')!, from: 'tgz', to: 'zip' }, dir, { workDir: workRoot }), 'unsupported_or_corrupt_input', dir);
    expect(bzipped.message).toMatch(/^The input is not a gzip-compressed tar archive: it reads as .*tar.*, bzip2-compressed\.$/);
    const junk = join(dir, 'junk.7z');
    writeFileSync(junk, Buffer.alloc(4096, 0x5a));
    await expectFailure(convertStep(runtime, { inputPath: junk, from: '7z', to: 'zip' }, dir, { workDir: workRoot }), 'unsupported_or_corrupt_input', dir);
    const truncated = join(dir, 'truncated.tar.xz');
    const whole = readFileSync(samples.get('txz')!);
    writeFileSync(truncated, whole.subarray(0, Math.floor(whole.length / 2)));
    await expectFailure(convertStep(runtime, { inputPath: truncated, from: 'txz', to: 'zip' }, dir, { workDir: workRoot }), 'unsupported_or_corrupt_input', dir);
    expect(leftovers(workRoot, dir)).toEqual([]);
  });

  it('refuses an encrypted archive without asking for a passphrase (security_rejected)', async () => {
    const tree = mkdtempSync(join(dir, 'secret-'));
    writeFileSync(join(tree, 'secret.txt'), 'secret');
    for (const [name, headers] of [['encrypted.7z', '-mhe=off'], ['encrypted-headers.7z', '-mhe=on']] as const) {
      execFileSync('7zz', ['a', '-bd', '-y', '-pletmein', headers, join(dir, name), 'secret.txt'], { cwd: tree, stdio: 'ignore' });
      const error = await expectFailure(convertStep(runtime, { inputPath: join(dir, name), from: '7z', to: 'zip' }, dir, { workDir: workRoot }), 'security_rejected', dir);
      expect(error.message).toBe('The archive is password-protected (encrypted): remove the password and upload it again.');
    }
    expect(leftovers(workRoot, dir)).toEqual([]);
  });

  it('stops at once when the job is aborted, leaving nothing behind', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(convertStep(runtime, { inputPath: samples.get('zip')!, from: 'zip', to: '7z' }, dir, { workDir: workRoot, signal: controller.signal })).rejects.toThrow();
    expect(leftovers(workRoot, dir)).toEqual([]);
  });

  it('refuses a pair it does not offer', async () => {
    await expectFailure(convertStep(runtime, { inputPath: samples.get('zip')!, from: 'zip', to: 'gz' }, dir, { workDir: workRoot }), 'unsupported_output_format', dir);
  });
});

/**
 * Hostile archives, each made by Python's zipfile or tarfile (bsdtar and GNU tar refuse to write most of them):
 * entries that climb out with "..", absolute paths, links to files of the host and writes through them, devices,
 * bombs. Each is refused with its failure type before anything is extracted, nothing appears where the entries
 * aim, and the job's scratch directory is left empty. A permissive extractor (GNU tar -P, the positive control)
 * shows the samples are live.
 */
describe('hostile archives: escapes, links, devices and bombs', () => {
  const runtime = new ArchivesRuntime();
  const climb = '../'.repeat(24);
  const target = (name: string) => join(outside, name);

  const refused = async (inputPath: string, from: string, failureType: string, message: RegExp) => {
    const error = await expectFailure(convertStep(runtime, { inputPath, from, to: from === 'zip' ? 'tar' : 'zip' }, dir, { workDir: workRoot }), failureType, outside);
    expect(error.message).toMatch(message);
    expect(error.retryable).toBe(false);
    expect(leftovers(workRoot, dir)).toEqual([]);
    expect(readdirSync(outside)).toEqual([]);
    return error;
  };

  it('refuses entries with ".." (zip and tar)', async () => {
    const dotdot = /^Entry 2 of the archive has a path with "\.\.": entries may not point outside the archive\.$/;
    await refused(pythonZip(join(dir, 'dotdot.zip'), [['ok.txt', 'fine'], [`${climb}${target('evil-dotdot').slice(1)}`, 'evil']]), 'zip', 'security_rejected', dotdot);
    await refused(pythonTar(join(dir, 'dotdot.tar'), [['ok.txt', 'file', 'fine'], [`docs/../../evil-dotdot`, 'file', 'evil']]), 'tar', 'security_rejected', dotdot);
    // A Windows separator climbs as well.
    await refused(pythonZip(join(dir, 'backslash.zip'), [['ok.txt', 'fine'], ['docs\\..\\..\\evil-backslash', 'evil']]), 'zip', 'security_rejected', dotdot);
  });

  it('refuses absolute paths (zip and tar)', async () => {
    const absolute = /^Entry 1 of the archive has an absolute path: only relative paths are carried across\.$/;
    await refused(pythonZip(join(dir, 'absolute.zip'), [[target('evil-absolute'), 'evil']]), 'zip', 'security_rejected', absolute);
    await refused(pythonTar(join(dir, 'absolute.tar'), [[target('evil-absolute'), 'file', 'evil']]), 'tar', 'security_rejected', absolute);
    expect(existsSync(target('evil-absolute'))).toBe(false);
  });

  it('refuses symbolic links: to /etc/passwd (read outside) and to a directory written through (zip and tar)', async () => {
    const symlink = /^Entry 1 of the archive is a symbolic link: only regular files and directories are carried across\.$/;
    await refused(pythonZip(join(dir, 'passwd-link.zip'), [['passwd', '/etc/passwd', 0o120777]]), 'zip', 'security_rejected', symlink);
    await refused(pythonTar(join(dir, 'passwd-link.tar'), [['passwd', 'symlink', '/etc/passwd']]), 'tar', 'security_rejected', symlink);
    await refused(pythonTar(join(dir, 'through-link.tar'), [['out', 'symlink', outside], ['out/evil-through-link', 'file', 'evil']]), 'tar', 'security_rejected', symlink);
    expect(existsSync(target('evil-through-link'))).toBe(false);
  });

  it('refuses hard links (a link to /etc/passwd would be re-packed with its contents)', async () => {
    await refused(pythonTar(join(dir, 'hardlink.tar'), [['ok.txt', 'file', 'fine'], ['passwd', 'hardlink', '/etc/passwd']]), 'tar', 'security_rejected', /^Entry 2 of the archive is a hard link:/);
    await refused(pythonTar(join(dir, 'hardlink-relative.tar'), [['ok.txt', 'file', 'fine'], ['again.txt', 'hardlink', 'ok.txt']]), 'tar', 'security_rejected', /^Entry 2 of the archive is a hard link:/);
  });

  it('refuses device files and FIFOs', async () => {
    await refused(pythonTar(join(dir, 'device.tar'), [['null', 'chr']]), 'tar', 'security_rejected', /^Entry 1 of the archive is a device file:/);
    await refused(pythonTar(join(dir, 'fifo.tar'), [['ok', 'dir'], ['ok/pipe', 'fifo']]), 'tar', 'security_rejected', /^Entry 2 of the archive is a FIFO \(named pipe\):/);
  });

  it('refuses a zip bomb and a tar.gz bomb by their ratio before extracting (security_rejected)', async () => {
    const zipBomb = join(dir, 'bomb.zip');
    python('import sys, zipfile\nwith zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z: z.writestr("zeros.bin", bytes(50_000_000))', zipBomb);
    const started = Date.now();
    const error = await refused(zipBomb, 'zip', 'security_rejected', /^The archive expands \d+ times its size \(at most 200 times\): it looks like a decompression bomb\.$/);
    expect(Number(/expands (\d+) times/.exec(error.message)![1])).toBeGreaterThan(900);
    expect(Date.now() - started).toBeLessThan(5000);
    const tgzBomb = join(dir, 'bomb.tar.gz');
    python('import io, sys, tarfile\nwith tarfile.open(sys.argv[1], "w:gz") as t:\n    info = tarfile.TarInfo("zeros.bin"); info.size = 50_000_000\n    t.addfile(info, io.BytesIO(bytes(info.size)))', tgzBomb);
    await refused(tgzBomb, 'tgz', 'security_rejected', /decompression bomb/);
    // Below the floor a high ratio is fine: 4 MB of zeros is no bomb.
    const small = join(dir, 'zeros.zip');
    python('import sys, zipfile\nwith zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as z: z.writestr("zeros.bin", bytes(4_000_000))', small);
    expect(4_000_000).toBeLessThan(RATIO_FLOOR_BYTES);
    const [tar] = (await convertStep(runtime, { inputPath: small, from: 'zip', to: 'tar' }, dir, { workDir: workRoot })) as [string];
    expect(readArchive(tar, 'tar')['zeros.bin']?.length).toBe(4_000_000);
  });

  it('refuses a zip whose headers lie about the size: the entry holds far more than declared', async () => {
    const liar = join(dir, 'liar.zip');
    python('import sys, zipfile\nwith zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as z: z.writestr("zeros.bin", bytes(20_000_000))', liar);
    const bytes = readFileSync(liar);
    // The uncompressed size in the local header (offset 22) and in the central directory entry (offset 24): 1000.
    bytes.writeUInt32LE(1000, 22);
    bytes.writeUInt32LE(1000, bytes.lastIndexOf(Buffer.from('PK\x01\x02', 'latin1')) + 24);
    writeFileSync(liar, bytes);
    await refused(liar, 'zip', 'security_rejected', /^The archive holds more data than its headers declare: it looks like a decompression bomb\.$/);
  });

  it('kills an extraction that writes more than the listing declared (headers can lie; a watcher, not trust)', async () => {
    // A bsdtar that lists honestly but, asked to extract, writes 50 MB: what a lying format would do.
    const fake = join(dir, 'lying-bsdtar');
    writeFileSync(fake, '#!/bin/sh\nif [ "$1" = "-x" ]; then shift 3; head -c 50000000 /dev/zero > "$2/grown.bin"; sleep 30; exit 0; fi\nexec bsdtar "$@"\n');
    chmodSync(fake, 0o755);
    const lying = new ArchivesRuntime(undefined, fake);
    const started = Date.now();
    const error = await expectFailure(convertStep(lying, { inputPath: plainTar(), from: 'tar', to: 'zip' }, dir, { workDir: workRoot }), 'security_rejected', dir);
    expect(error.message).toBe('The archive holds more data than its headers declare: it looks like a decompression bomb.');
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(leftovers(workRoot, dir)).toEqual([]);
  });

  it('positive control: GNU tar -P extracts the same samples outside its directory', () => {
    const control = mkdtempSync(join(dir, 'control-'));
    const deep = join(control, 'a/b/c');
    mkdirSync(deep, { recursive: true });
    const escape = pythonTar(join(dir, 'control.tar'), [[target('evil-absolute'), 'file', 'evil'], ['../../../evil-dotdot', 'file', 'evil']]);
    execFileSync('tar', ['-xPf', escape, '-C', deep]);
    expect(existsSync(target('evil-absolute'))).toBe(true);
    expect(allPaths(control)).toContain('evil-dotdot');
    rmSync(target('evil-absolute'));
    expect(readdirSync(outside)).toEqual([]);
  });

  /** A plain tar sample, for the fake engine. */
  const plainTar = () => writeArchiveSample('tar', join(dir, 'plain.tar'));
});
