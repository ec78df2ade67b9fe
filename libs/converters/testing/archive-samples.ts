import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { expect } from 'vitest';
import { mimeOf } from './document-checks.js';

// Archives written by other producers than bsdtar (the engine): Python's zipfile, GNU tar with gzip, bzip2 and
// xz, 7-Zip (7zz, Debian package 7zip). Read back by other readers too: Python's zipfile and tarfile (which
// insist on the compression: "r:gz" reads gzip only), 7zz, and libmagic for the container.

export const ARCHIVE_SAMPLE_FORMATS = ['zip', '7z', 'tar', 'tgz', 'tbz2', 'txz'] as const;
export type ArchiveSampleFormat = (typeof ARCHIVE_SAMPLE_FORMATS)[number];
export const isArchiveSampleFormat = (format: string): format is ArchiveSampleFormat => (ARCHIVE_SAMPLE_FORMATS as readonly string[]).includes(format);

/** An archive's contents: file paths to their bytes; directories end with "/" and hold no bytes. */
export type ArchiveContents = Record<string, Buffer | null>;

/** A couple of files, one in a subdirectory and one deeper, text and binary. */
export const ARCHIVE_SAMPLE_CONTENTS: ArchiveContents = {
  'readme.txt': Buffer.from('Fileshift archive sample\n'),
  'docs/': null,
  'docs/notes.md': Buffer.from('# Notes\n\nA file in a subdirectory, with ünïcödé.\n'),
  'docs/deeper/': null,
  'docs/deeper/data.bin': Buffer.from(Array.from({ length: 700 }, (_, i) => (i * 37 + (i >> 3)) % 256)),
};

const PYTHON = '/usr/bin/python3';
const TAR_FLAGS: Record<string, string> = { tar: '', tgz: 'z', tbz2: 'j', txz: 'J' };
const PYTHON_TAR_MODES: Record<string, string> = { tar: 'r:', tgz: 'r:gz', tbz2: 'r:bz2', txz: 'r:xz' };
/** What libmagic calls each container (the outer one for compressed tars). */
export const ARCHIVE_MIME_TYPES: Record<ArchiveSampleFormat, string> = {
  zip: 'application/zip',
  '7z': 'application/x-7z-compressed',
  tar: 'application/x-tar',
  tgz: 'application/gzip',
  tbz2: 'application/x-bzip2',
  txz: 'application/x-xz',
};

/** Writes `contents` as files under a fresh directory (paths ending in "/" as directories); its path. */
export function writeTree(contents: ArchiveContents, parent = tmpdir()): string {
  const root = mkdtempSync(join(parent, 'fileshift-archive-tree-'));
  for (const [path, bytes] of Object.entries(contents)) {
    if (bytes === null) mkdirSync(join(root, path), { recursive: true });
    else {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), bytes);
    }
  }
  return root;
}

/**
 * An archive of `format` at `path` holding `contents`, written without bsdtar: Python's zipfile (deflate, with
 * directory entries), GNU tar (-z, -j, -J for the compressed ones), 7zz.
 */
export function writeArchiveSample(format: ArchiveSampleFormat, path: string, contents: ArchiveContents = ARCHIVE_SAMPLE_CONTENTS): string {
  const tree = writeTree(contents, dirname(path));
  const names = Object.keys(contents).filter((name) => !name.slice(0, -1).includes('/')).map((name) => name.replace(/\/$/, ''));
  try {
    if (format === 'zip') {
      const script = [
        'import os, sys, zipfile',
        'root, out, names = sys.argv[1], sys.argv[2], sys.argv[3:]',
        'with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:',
        '    for name in names:',
        '        z.write(os.path.join(root, name), name)',
        '        for base, dirs, files in sorted(os.walk(os.path.join(root, name))):',
        '            for entry in sorted(dirs + files):',
        '                full = os.path.join(base, entry)',
        '                z.write(full, os.path.relpath(full, root))',
      ].join('\n');
      execFileSync(PYTHON, ['-c', script, tree, path, ...names]);
    } else if (format === '7z') {
      execFileSync('7zz', ['a', '-bd', '-y', path, '--', ...names], { cwd: tree, stdio: 'ignore' });
    } else {
      execFileSync('tar', [`-c${TAR_FLAGS[format]}f`, path, '--sort=name', '-C', tree, '--', ...names]);
    }
  } finally {
    rmSync(tree, { recursive: true, force: true });
  }
  return path;
}

/** One sample per archive format in `dir`, by format. */
export function writeArchiveSamples(dir: string): Map<ArchiveSampleFormat, string> {
  return new Map(ARCHIVE_SAMPLE_FORMATS.map((format) => [format, writeArchiveSample(format, join(dir, `sample.${format === 'tgz' ? 'tar.gz' : format}`))]));
}

/**
 * What an archive holds, read by readers other than bsdtar: Python's zipfile; Python's tarfile with the
 * compression the format names (a tgz that is not gzip fails); 7zz extracting into a temporary directory.
 * Anything but files and directories shows as `<kind>` entries with no bytes, so a link cannot pass unseen.
 */
export function readArchive(path: string, format: ArchiveSampleFormat): ArchiveContents {
  if (format === '7z') {
    const out = mkdtempSync(join(tmpdir(), 'fileshift-7z-read-'));
    try {
      execFileSync('7zz', ['x', '-bd', '-y', `-o${out}`, path], { stdio: 'ignore' });
      const contents: ArchiveContents = {};
      const visit = (relative: string) => {
        for (const name of readdirSync(join(out, relative)).sort()) {
          const entry = relative ? `${relative}/${name}` : name;
          const info = statSync(join(out, entry));
          if (info.isDirectory()) {
            contents[`${entry}/`] = null;
            visit(entry);
          } else contents[entry] = readFileSync(join(out, entry));
        }
      };
      visit('');
      return contents;
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }
  const script = [
    'import base64, json, sys, tarfile, zipfile',
    'path, kind = sys.argv[1], sys.argv[2]',
    'out = {}',
    'if kind == "zip":',
    '    with zipfile.ZipFile(path) as z:',
    '        for i in z.infolist():',
    '            out[i.filename] = None if i.is_dir() else base64.b64encode(z.read(i)).decode()',
    'else:',
    '    with tarfile.open(path, sys.argv[3]) as t:',
    '        for m in t.getmembers():',
    '            if m.isdir(): out[m.name.rstrip("/") + "/"] = None',
    '            elif m.isfile(): out[m.name] = base64.b64encode(t.extractfile(m).read()).decode()',
    '            else: out[m.name + " <not a file>"] = None',
    'print(json.dumps(out))',
  ].join('\n');
  const json = execFileSync(PYTHON, ['-c', script, path, format, PYTHON_TAR_MODES[format] ?? ''], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  return Object.fromEntries(Object.entries(JSON.parse(json) as Record<string, string | null>).map(([name, data]) => [name, data === null ? null : Buffer.from(data, 'base64')]));
}

/** GNU tar's own listing of a tar (any compression it detects), for the tar formats. */
export const gnuTarEntries = (path: string) => execFileSync('tar', ['-tf', path], { encoding: 'utf8' }).split('\n').filter(Boolean);

/** The archive is a `format` container (libmagic) holding exactly `contents`, byte for byte (another reader). */
export function expectArchive(path: string, format: ArchiveSampleFormat, contents: ArchiveContents = ARCHIVE_SAMPLE_CONTENTS): void {
  expect(mimeOf(path)).toBe(ARCHIVE_MIME_TYPES[format]);
  const read = readArchive(path, format);
  expect(Object.keys(read).sort()).toEqual(Object.keys(contents).sort());
  for (const [name, bytes] of Object.entries(contents)) {
    if (bytes === null) expect(read[name], name).toBeNull();
    else expect(read[name]?.equals(bytes), name).toBe(true);
  }
}
