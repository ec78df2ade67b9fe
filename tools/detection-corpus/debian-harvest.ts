/**
 * Real files shipped by Debian packages, chosen by extension: the extension (mapped through the catalogue) is the
 * ground truth, `file --mime` only drops obvious mislabels. Deterministic: directories are walked in sorted order
 * and picks are spread over packages so that no single directory dominates a format.
 */
import { execFileSync } from 'node:child_process';
import { lstatSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { formatByExtension, getFormat } from '@fileshift/formats';
import { keep, work } from './corpus-context.js';

const ROOTS = ['/usr/share', '/usr/lib', '/usr/include'];
/** Not Debian's (npm, locally built) or too large to be worth walking. */
const SKIP_DIRS = new Set(['/usr/lib/node_modules', '/usr/share/node_modules', '/usr/lib/modules', '/usr/lib/firmware']);
const MIN_BYTES = 64;
const PER_FORMAT = 10;
const CANDIDATES_PER_FORMAT = 40;

/** Extensions whose usual meaning on a Debian system is not the catalogue's. */
const MISLEADING_EXTENSIONS = new Set([
  'ts', // Qt Linguist translations, not TypeScript
  'svgz', // gzip-compressed, detected as gz
  'dot', // Graphviz, not Word templates
  'pot', // gettext templates, not PowerPoint
  'conf', 'cfg', 'tab', 'log', 'text', 'key', 'cap', 'db', 'msg', 'obj', 'pps', 'sys', 'ar', 'o', 'bw', 'hdr', 'ppm',
]);

/** For formats where the extension is often reused, what `file --mime-type` must say for us to trust it. */
const EXPECTED_MIME: Record<string, RegExp> = {
  elf: /x-(sharedlib|executable|pie-executable|object)/, ar: /x-archive/, sgi: /sgi/, gz: /gzip/, bz2: /bzip2/, xz: /x-xz/, zst: /zstd/, tar: /x-tar/,
  zip: /zip/, jar: /zip|java/, epub: /epub|zip/, pdf: /pdf/, ps: /postscript/, eps: /postscript/, mo: /gettext/, xpm: /xpixmap/, xbm: /xbitmap|text\/x-c/,
  ico: /icon/, png: /image\/png/, jpg: /image\/jpeg/, gif: /image\/gif/, svg: /svg|xml/, tiff: /tiff/, bmp: /bmp/, ttf: /font|sfnt/, otf: /font|sfnt/,
  pfb: /font|postscript|octet/, wav: /wav/, ogg: /ogg|audio/, flac: /flac/, html: /html|xml/, xml: /xml|svg/, sh: /shellscript|text\/plain/,
  pl: /perl|text\/plain/, py: /python|text\/plain|script/, json: /json|text\/plain/, js: /javascript|text\/plain/, c: /text\/x-c$|text\/plain/,
  cpp: /c\+\+|text\/x-c|text\/plain/, css: /css|text\/plain/, class: /java/, sqlite: /sqlite/, deb: /debian/,
};

/** Formats stored as text: a harvested file must not be binary. Everything else must be. */
const TEXTUAL_CATEGORIES = new Set(['text', 'code', 'data']);
const BINARY_DATA = new Set(['sqlite', 'parquet', 'avro', 'pcap', 'wasm', 'dicom', 'mo']);
const TEXTUAL_FORMATS = new Set(['svg', 'xpm', 'xbm', 'ps', 'eps', 'rtf', 'csv', 'tsv', 'pbm', 'pgm', 'obj', 'ply', 'stl', 'gltf', 'eml']);

interface Candidate { format: string; path: string; group: string }

function walk(dir: string, visit: (path: string, size: number) => void): void {
  if (SKIP_DIRS.has(dir)) return;
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const path = join(dir, entry.name);
    if (entry.isSymbolicLink()) continue;
    if (entry.isDirectory()) walk(path, visit);
    else if (entry.isFile()) visit(path, lstatSync(path).size);
  }
}

/** The package-level directory a file belongs to, e.g. /usr/share/doc/git or /usr/lib/python3/dist-packages/yaml. */
function groupOf(path: string): string {
  const parts = path.split('/');
  const depth = parts.includes('dist-packages') || parts.includes('site-packages') || parts[3] === 'doc' ? 6 : 5;
  return parts.slice(0, depth).join('/');
}

function extensionFormat(path: string): string | undefined {
  const name = basename(path).toLowerCase();
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return undefined;
  const ext = name.slice(dot + 1);
  if (MISLEADING_EXTENSIONS.has(ext)) return undefined;
  if (ext === 'gz' && name.endsWith('.tar.gz')) return 'tgz';
  if (ext === 'h' && /\/c\+\+\/|\/qt|\/boost\//i.test(path)) return undefined; // C++ headers named .h
  return formatByExtension(ext)?.id;
}

/** Orders groups so that the first picks are spread over the whole sorted list, not its start. */
function spreadOrder<T>(items: T[]): T[] {
  return items.map((item, index) => ({ item, key: (index * 0.6180339887) % 1 })).sort((a, b) => a.key - b.key).map(({ item }) => item);
}

function spreadPick(candidates: Candidate[], count: number): Candidate[] {
  const groups = new Map<string, Candidate[]>();
  for (const candidate of candidates) groups.set(candidate.group, [...(groups.get(candidate.group) ?? []), candidate]);
  // Both the groups and the files inside each group are taken in spread order; round r takes each group's r-th file.
  const ordered = spreadOrder([...groups.keys()].sort()).map((key) => spreadOrder(groups.get(key)!));
  const longest = Math.max(0, ...ordered.map((group) => group.length));
  const picked: Candidate[] = [];
  for (let round = 0; round < longest && picked.length < count; round++) {
    for (const group of ordered) {
      if (round < group.length) picked.push(group[round]!);
      if (picked.length >= count) break;
    }
  }
  return picked;
}

function mimesOf(paths: string[]): string[] {
  const list = join(work, 'harvest-list.txt');
  writeFileSync(list, `${paths.join('\n')}\n`);
  return execFileSync('file', ['-b', '--mime', '-f', list], { maxBuffer: 64 * 1024 * 1024 }).toString('utf8').trimEnd().split('\n');
}

function plausible(format: string, category: string, mime: string): boolean {
  const binary = mime.endsWith('charset=binary');
  const textual = TEXTUAL_FORMATS.has(format) || (TEXTUAL_CATEGORIES.has(category) && !BINARY_DATA.has(format));
  if (mime.startsWith('inode/') || textual === binary) return false;
  return EXPECTED_MIME[format]?.test(mime.split(';')[0]!) ?? true;
}

export function debianHarvest(): void {
  const byFormat = new Map<string, Candidate[]>();
  for (const root of ROOTS) {
    walk(root, (path, size) => {
      if (size < MIN_BYTES) return;
      const format = extensionFormat(path);
      if (!format) return;
      byFormat.set(format, [...(byFormat.get(format) ?? []), { format, path, group: groupOf(path) }]);
    });
  }
  const shortlist = [...byFormat.keys()].sort().flatMap((format) => spreadPick(byFormat.get(format)!, CANDIDATES_PER_FORMAT));
  const mimes = mimesOf(shortlist.map((c) => c.path));
  const taken = new Map<string, number>();
  for (const [index, candidate] of shortlist.entries()) {
    const category = getFormat(candidate.format)?.category ?? '';
    if ((taken.get(candidate.format) ?? 0) >= PER_FORMAT || !plausible(candidate.format, category, mimes[index] ?? '')) continue;
    taken.set(candidate.format, (taken.get(candidate.format) ?? 0) + 1);
    keep(candidate.format, candidate.path, `debian:${candidate.path}`);
  }
}

/** Executables have no extension on Debian: a few well-known ones from /usr/bin. */
export function debianExecutables(): void {
  for (const path of ['/usr/bin/ls', '/usr/bin/env', '/usr/bin/git', '/usr/bin/python3', '/usr/bin/ffmpeg']) {
    try {
      keep('elf', path, `debian:${path}`, `${basename(path)}.elf`);
    } catch {
      // not installed here
    }
  }
}
