import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { SandboxedProcessRunner } from '../src/platform/sandboxed-process.runner.js';
import { processesWith } from './support/processes.js';
import { expectFailure } from './support/test-context.js';

const root = mkdtempSync(join(tmpdir(), 'fileshift-runner-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
// A killed process may linger as a zombie until its new parent reaps it: that is not alive.
const alive = (pid: number) => existsSync(`/proc/${pid}`) && !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
const settle = () => new Promise((resolve) => setTimeout(resolve, 200));

describe('SandboxedProcessRunner', () => {
  const runner = new SandboxedProcessRunner();
  let workRoot = '';
  beforeEach(() => {
    workRoot = mkdtempSync(join(root, 'work-'));
  });

  it('kills the whole process tree on timeout', async () => {
    let stdout = '';
    let leader = 0;
    const started = Date.now();
    // Durations no other process uses: the sandbox's pids are its own, so the tree is found by command line.
    await expectFailure(
      runner.run({ command: 'sh', args: ['-c', 'sleep 100.4171 & echo started; sleep 100.4172'], scratchDir: workRoot, timeoutMs: 500, onStdout: (c) => (stdout += c), onSpawn: (pid) => (leader = pid) }),
      'timeout',
      workRoot,
    );
    expect(Date.now() - started).toBeLessThan(5000);
    expect(stdout.trim()).toBe('started');
    await settle();
    expect(alive(leader)).toBe(false);
    expect(processesWith('sleep 100.417')).toEqual([]);
    expect(readdirSync(workRoot)).toEqual([]);
  });

  it('kills a process whose output passes the cap', async () => {
    const out = join(workRoot, 'big.bin');
    await expectFailure(
      runner.run({ command: 'sh', args: ['-c', 'while true; do head -c 65536 /dev/zero >> "$1"; done', 'sh', out], scratchDir: workRoot, timeoutMs: 20_000, outputPath: out, maxOutputBytes: 1_000_000 }),
      'file_too_large',
      root,
    );
    expect(statSync(out).size).toBeLessThan(200_000_000);
  });

  it('runs in a fresh temporary directory that is removed after success', async () => {
    const result = await runner.run({ command: 'sh', args: ['-c', 'pwd; echo data > scratch; echo "$HOME"'], scratchDir: workRoot, timeoutMs: 5000 });
    const [cwd, home] = result.stdout.trim().split('\n');
    expect(result.exitCode).toBe(0);
    expect(cwd!.startsWith(workRoot)).toBe(true);
    expect(home).toBe(cwd);
    expect(existsSync(cwd!)).toBe(false);
    expect(readdirSync(workRoot)).toEqual([]);
  });

  it('removes the temporary directory after a failure too', async () => {
    const result = await runner.run({ command: 'sh', args: ['-c', 'echo boom > scratch; echo oops >&2; exit 3'], scratchDir: workRoot, timeoutMs: 5000 });
    expect(result.exitCode).toBe(3);
    expect(result.stderrTail).toContain('oops');
    expect(readdirSync(workRoot)).toEqual([]);
  });

  it('passes arguments without a shell: a hostile argument is just a name', async () => {
    const marker = join(workRoot, 'pwned');
    const result = await runner.run({ command: 'printf', args: ['%s', `x; touch ${marker}; rm -rf /nonexistent $(touch ${marker})`], scratchDir: workRoot, timeoutMs: 5000 });
    expect(result.stdout).toBe(`x; touch ${marker}; rm -rf /nonexistent $(touch ${marker})`);
    expect(existsSync(marker)).toBe(false);
  });

  it('keeps only the last 4 KB of stderr', async () => {
    const result = await runner.run({ command: 'sh', args: ['-c', 'head -c 20000 /dev/zero | tr "\\0" a >&2; echo END >&2'], scratchDir: workRoot, timeoutMs: 5000 });
    expect(result.stderrTail.length).toBeLessThanOrEqual(4096);
    expect(result.stderrTail).toContain('END');
  });

  it('stops when aborted', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const error = await expectFailure(runner.run({ command: 'sleep', args: ['30'], scratchDir: workRoot, timeoutMs: 10_000, signal: controller.signal }), 'unknown', workRoot);
    expect(error.retryable).toBe(true);
  });

  // A kill in the first milliseconds once left the sandbox's first process alive (it leaves our process group and
  // only later asks to die with its parent), holding the run open until the engine's own limits ended it.
  it('stops at once when aborted at any moment of the sandbox\'s start, leaving no process', async () => {
    for (let attempt = 0; attempt < 60; attempt++) {
      const controller = new AbortController();
      const delayMs = attempt % 6;
      const run = runner.run({
        command: 'sleep',
        args: ['100.4173'],
        scratchDir: workRoot,
        timeoutMs: 60_000,
        signal: controller.signal,
        onSpawn: () => (delayMs === 0 ? controller.abort() : setTimeout(() => controller.abort(), delayMs)),
      });
      const hung = new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), 10_000).unref());
      const ended = await Promise.race([run.then(() => 'finished', (error: { failureType?: string }) => error.failureType), hung]);
      expect({ attempt, ended }).toEqual({ attempt, ended: 'unknown' });
    }
    await settle();
    expect(processesWith('sleep 100.4173')).toEqual([]);
    expect(readdirSync(workRoot)).toEqual([]);
  }, 120_000);

  it('gives the engine a minimal environment without proxies', async () => {
    process.env.HTTP_PROXY = 'http://proxy.invalid';
    process.env.SECRET_TOKEN = 'do-not-leak';
    try {
      const result = await runner.run({ command: 'env', args: [], scratchDir: workRoot, timeoutMs: 5000 });
      expect(result.stdout).not.toContain('HTTP_PROXY');
      expect(result.stdout).not.toContain('do-not-leak');
      expect(result.stdout).toMatch(/^HOME=/m);
    } finally {
      delete process.env.HTTP_PROXY;
      delete process.env.SECRET_TOKEN;
    }
  });

  it('reports a missing engine binary as a non-zero exit', async () => {
    const result = await runner.run({ command: 'no-such-engine-binary', args: [], scratchDir: workRoot, timeoutMs: 5000 });
    expect(result.exitCode).toBe(127);
  });
});
