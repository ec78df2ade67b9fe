import { createHash, randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ArchivesRuntime } from './archives.runtime.js';
import { ARCHIVE_FORMATS, ARCHIVES_DESCRIPTOR } from './archives.descriptor.js';
import type { EngineLimits } from '../../platform/engine-descriptor.js';
import { type ArchiveContents, expectArchive, writeArchiveSample } from '../../../testing/archive-samples.js';
import { expectFailure, leftovers, testContext } from '../../../test/support/test-context.js';
import { reportMissingEngine } from '../../../testing/pdf-samples.js';

const workRoot = mkdtempSync(join(tmpdir(), 'fileshift-archives-join-'));
// The members live in the job's scratch directory, as a join's do: only it is bound into the sandbox.
const dir = mkdtempSync(join(workRoot, 'files-'));
afterAll(() => rmSync(workRoot, { recursive: true, force: true }));

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('archives join: any files into one archive, named by their names, bytes unchanged', () => {
  const runtime = new ArchivesRuntime();
  const file = (name: string, bytes: Buffer) => {
    const path = join(dir, name);
    writeFileSync(path, bytes);
    return path;
  };
  let members: Array<{ path: string; format: string; name: string }> = [];
  /** What the archive must hold: the unique names and each member's bytes. */
  let expected: ArchiveContents = {};
  let joins = 0;
  const joined = async (to: string, given = members, limits: Partial<EngineLimits> = {}) => {
    const outputDir = join(dir, `join-${++joins}`);
    mkdirSync(outputDir);
    const { files } = await runtime.join({ members: given, outputDir, to, options: {} }, testContext(runtime, workRoot, limits));
    return files;
  };

  beforeAll(async () => {
    const probe = await runtime.probe();
    if (!probe.available) reportMissingEngine('archives', probe.problem, ARCHIVES_DESCRIPTOR.debianPackages);
    const photo = randomBytes(40_000);
    const zip = writeArchiveSample('zip', join(dir, 'inner.zip'));
    const text = Buffer.from('Fileshift: notes of März, with “quotes”\n');
    members = [
      { path: file('member-1', Buffer.from('%PDF-1.4 not really\n')), format: 'pdf', name: 'report.pdf' },
      { path: file('member-2', photo), format: 'jpg', name: 'photo.jpg' },
      // The same name in other case, then again: Windows and macOS would extract one over the other.
      { path: file('member-3', randomBytes(3_000)), format: 'jpg', name: 'Photo.JPG' },
      { path: file('member-4', randomBytes(2_000)), format: 'jpg', name: 'photo.jpg' },
      // An archive is a file like any other: carried, not expanded.
      { path: zip, format: 'zip', name: 'inner.zip' },
      // bsdtar would read "@x" as an archive to include: it stays a name.
      { path: file('member-6', text), format: 'txt', name: '@März – Notizen.txt' },
      { path: file('member-7', Buffer.from('no extension')), format: 'bin', name: 'notes' },
      // The same file twice: two entries of the same bytes, neither a link to the other.
      { path: join(dir, 'member-7'), format: 'bin', name: 'notes' },
    ];
    expected = {
      'report.pdf': readFileSync(members[0]!.path),
      'photo.jpg': photo,
      'Photo (2).JPG': readFileSync(members[2]!.path),
      'photo (3).jpg': readFileSync(members[3]!.path),
      'inner.zip': readFileSync(zip),
      '@März – Notizen.txt': text,
      notes: Buffer.from('no extension'),
      'notes (2)': Buffer.from('no extension'),
    };
  });

  it('declares a join into every archive format it writes', () => {
    expect(ARCHIVES_DESCRIPTOR.joins).toEqual(ARCHIVE_FORMATS.map((into) => ({ into, members: 'any' })));
  });

  it('writes every archive format: the entries named, equal names made unique, each holding its member byte for byte', async () => {
    for (const format of ARCHIVE_FORMATS) {
      const [archive] = (await joined(format)) as [string];
      // libmagic's container, and the entries read by Python's zipfile and tarfile or by 7-Zip (regular files only).
      expectArchive(archive, format, expected);
      if (format === '7z') {
        const listed = execFileSync('7zz', ['l', '-slt', '-ba', archive], { encoding: 'utf8' });
        expect([...listed.matchAll(/^Path = (.*)$/gm)].map((match) => match[1]).sort()).toEqual(Object.keys(expected).sort());
      }
    }
    expect(leftovers(workRoot, dir)).toEqual([]);
  });

  it('is read by unzip: the names in order, each entry the sha256 of its member', async () => {
    const [zip] = (await joined('zip')) as [string];
    expect(execFileSync('unzip', ['-Z1', zip], { encoding: 'utf8' }).trim().split('\n')).toEqual(Object.keys(expected));
    for (const [index, name] of Object.keys(expected).entries()) {
      // unzip takes wildcards in names: each escaped.
      const bytes = execFileSync('unzip', ['-p', zip, name.replace(/[[\]*?\\]/g, '\\$&')], { maxBuffer: 1024 * 1024 });
      expect(sha256(bytes), name).toBe(sha256(readFileSync(members[index]!.path)));
    }
  });

  it('refuses a name that is not a plain file name, whatever the caller let through', async () => {
    for (const name of ['../escape.txt', 'dir/file.txt', 'back\\slash.txt', '-rf', '.hidden', '..', 'nul\0.txt', '']) {
      const error = await expectFailure(joined('zip', [members[0]!, { ...members[1]!, name }]), 'security_rejected', dir);
      expect(error.message).toContain('File 2');
    }
    expect(leftovers(workRoot, dir)).toEqual([]);
  });

  it('holds to maxEntries and to the output cap, leaving nothing behind', async () => {
    await expectFailure(joined('tar', members, { maxEntries: members.length - 1 }), 'file_too_large', dir);
    await expectFailure(joined('tar', members, { maxOutputBytes: 20_000 }), 'file_too_large', dir);
    expect(readdirSync(join(dir, `join-${joins}`))).toEqual([]);
    expect(leftovers(workRoot, dir)).toEqual([]);
  });

  it('refuses a join into what is not an archive', async () => {
    await expectFailure(joined('pdf'), 'unsupported_output_format', dir);
  });
});
