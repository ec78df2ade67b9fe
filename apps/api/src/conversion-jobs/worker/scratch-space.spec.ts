import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ScratchSpace } from './scratch-space.js';

const root = mkdtempSync(join(tmpdir(), 'fileshift-scratch-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('ScratchSpace', () => {
  it('gives each conversion its own directory and removes it with its files', async () => {
    const scratch = new ScratchSpace(root);
    const [a, b] = await Promise.all([scratch.open('job_a'), scratch.open('job_a')]);
    expect(a.path).not.toBe(b.path);
    writeFileSync(a.file('input'), 'bytes');
    await a.remove();
    await b.remove();
    expect(readdirSync(root)).toEqual([]);
  });

  it('sweeps what dead workers of this host left, never a live worker\'s or another host\'s', async () => {
    const scratch = new ScratchSpace(root);
    const deadPid = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
    const host = hostname().replace(/[^A-Za-z0-9.-]/g, '-');
    const dead = join(root, `${host}_${deadPid}-job_x-0000`);
    const live = join(root, `${host}_${process.ppid}-job_y-0000`);
    const elsewhere = join(root, `${host}-2_${deadPid}-job_z-0000`);
    for (const dir of [dead, live, elsewhere]) mkdirSync(dir);
    writeFileSync(join(dead, 'input'), 'left behind');
    expect(await scratch.sweepOrphans()).toBe(1);
    expect([existsSync(dead), existsSync(live), existsSync(elsewhere)]).toEqual([false, true, true]);
  });
});
