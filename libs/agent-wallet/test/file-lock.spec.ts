import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileLock } from '../src/file-lock.js';

describe('FileLock (exclusive between processes)', () => {
  let dir: string;
  let lockPath: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'file-lock-'));
    lockPath = join(dir, 'ledger.lock');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('runs the critical section holding the lock file, and removes it afterwards', async () => {
    const lock = new FileLock(lockPath);
    const holder = await lock.hold(() => readFileSync(lockPath, 'utf8'));
    expect(holder.startsWith(`${process.pid} ${hostname()} `)).toBe(true);
    expect(existsSync(lockPath)).toBe(false);
    expect(lock.holdSync(() => existsSync(lockPath))).toBe(true);
    expect(existsSync(lockPath)).toBe(false);
  });

  it('waits while another process holds it', async () => {
    const events = join(dir, 'events');
    // The other process takes the lock, says so, and on "go" writes its event before letting go.
    const other = spawn(
      process.execPath,
      [
        '-e',
        `const fs = require('node:fs');
         fs.writeFileSync(${JSON.stringify(lockPath)}, process.pid + ' ' + require('node:os').hostname() + ' other', { flag: 'wx' });
         process.stdout.write('locked\\n');
         process.stdin.once('data', () => { fs.appendFileSync(${JSON.stringify(events)}, 'other\\n'); fs.unlinkSync(${JSON.stringify(lockPath)}); process.exit(0); });`,
      ],
      { stdio: ['pipe', 'pipe', 'inherit'] },
    );
    await new Promise((resolve) => other.stdout!.once('data', resolve));
    const ours = new FileLock(lockPath).hold(() => readFileSync(events, 'utf8'));
    other.stdin!.write('go\n');
    expect(await ours).toBe('other\n');
  });

  it('takes over a lock whose holder process is gone', async () => {
    const gone = spawnSync(process.execPath, ['-e', '']).pid;
    writeFileSync(lockPath, `${gone} ${hostname()} crashed`);
    expect(await new FileLock(lockPath).hold(() => 'held')).toBe('held');
  });

  it('takes over a lock older than the stale age whose holder cannot be checked', async () => {
    writeFileSync(lockPath, `1 another-host crashed`);
    const longAgo = new Date(Date.now() - 60_000);
    utimesSync(lockPath, longAgo, longAgo);
    expect(await new FileLock(lockPath, { staleMs: 10_000 }).hold(() => 'held')).toBe('held');
  });

  it('gives up with a message naming the holder when a live lock is never released', async () => {
    writeFileSync(lockPath, `${process.pid} ${hostname()} someone-else`);
    await expect(new FileLock(lockPath, { maxWaitMs: 0 }).hold(() => 'held')).rejects.toThrow(/still held by .* someone-else/);
    expect(readFileSync(lockPath, 'utf8')).toContain('someone-else');
  });
});
