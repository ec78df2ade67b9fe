import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { lockPgliteDirectory } from './pglite-lock.js';

describe('the PGlite directory lock', () => {
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const lockFile = () => join(dir, 'fileshift.pid');

  it('is taken by the first process and kept by it', () => {
    dir = mkdtempSync(join(tmpdir(), 'fileshift-lock-'));
    lockPgliteDirectory(dir);
    lockPgliteDirectory(dir);
    expect(readFileSync(lockFile(), 'utf8')).toBe(String(process.pid));
  });

  it('refuses while another live process holds the directory', () => {
    dir = mkdtempSync(join(tmpdir(), 'fileshift-lock-'));
    writeFileSync(lockFile(), String(process.ppid));
    expect(() => lockPgliteDirectory(dir)).toThrow(`is in use by process ${process.ppid}, and PGlite allows one process`);
  });

  it('takes over a lock left by a process that is gone', () => {
    dir = mkdtempSync(join(tmpdir(), 'fileshift-lock-'));
    writeFileSync(lockFile(), '2147483646');
    lockPgliteDirectory(dir);
    expect(readFileSync(lockFile(), 'utf8')).toBe(String(process.pid));
  });
});
