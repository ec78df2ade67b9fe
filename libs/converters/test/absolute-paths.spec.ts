import { describe, expect, it } from 'vitest';
import { ChromiumRuntime } from '../src/engines/chromium/chromium.runtime.js';
import { LibreOfficeRuntime } from '../src/engines/libreoffice/libreoffice.runtime.js';
import { NodeHostPool } from '../src/platform/node-host/node-host.pool.js';
import { EngineSandbox, SandboxSetupError } from '../src/platform/sandbox/engine-sandbox.js';
import { SandboxedDaemon } from '../src/platform/sandbox/sandboxed-daemon.js';
import { SandboxedProcessRunner } from '../src/platform/sandboxed-process.runner.js';

/**
 * A relative path is a bug of whoever passed it: bubblewrap binds by name from its own root, and a sandboxed process
 * reads a relative path against its own directory (the README's `DATA_DIR=.data` once ran every engine unsandboxed,
 * and broke the Node host). The configuration resolves every path once; the sandbox, the runner, the Node host and the
 * warm pools refuse a relative one outright, sandboxed or not, and a sandbox trial that fails on our own arguments is
 * SandboxSetupError, never "this machine cannot sandbox".
 */
const RELATIVE = /must be an absolute path, not "\.data\//;
const limits = { memoryBytes: 2 ** 30, residentBytes: 2 ** 30, cpuSeconds: 5, processes: 16, openFiles: 64, fileBytes: 1024 };

describe('relative paths are refused at the mechanism', () => {
  it('by the sandbox, for writable and read-only paths and the working directory, with the sandbox on or off', async () => {
    for (const sandbox of [await EngineSandbox.start('required'), await EngineSandbox.start('off')]) {
      const request = { command: '/usr/bin/true', args: [], writableDirs: ['/tmp/job'], cwd: '/tmp/job', limits, sockets: 'unix-only' as const };
      await expect(sandbox.prepare({ ...request, writableDirs: ['.data/scratch/job'] })).rejects.toThrow(RELATIVE);
      await expect(sandbox.prepare({ ...request, readOnlyPaths: ['.data/engines/policy.xml'] })).rejects.toThrow(RELATIVE);
      await expect(sandbox.prepare({ ...request, cwd: '.data/scratch/job' })).rejects.toThrow(RELATIVE);
    }
  });

  it('by the runner, for a run\'s scratch directory', async () => {
    await expect(new SandboxedProcessRunner().run({ command: '/usr/bin/true', args: [], scratchDir: '.data/scratch/job', timeoutMs: 5000 })).rejects.toThrow(RELATIVE);
  });

  it('by the Node host and every warm pool, for their work root, when they are made', async () => {
    const sandbox = EngineSandbox.unsandboxed('test');
    expect(() => new NodeHostPool({ workRoot: '.data/engines', sandbox })).toThrow(/an engine's work root must be an absolute path/);
    expect(() => new LibreOfficeRuntime({ workRoot: '.data/engines', sandbox })).toThrow(/an engine's work root must be an absolute path/);
    expect(() => new ChromiumRuntime({ workRoot: '.data/engines', sandbox })).toThrow(/an engine's work root must be an absolute path/);
    expect(() => new SandboxedDaemon({ sandbox, root: '.data/engines', prefix: 'x-', limits, name: 'the test daemon' })).toThrow(/the root of the test daemon must be an absolute path/);
  });

  it('a sandbox trial in a relative directory is our bug (SandboxSetupError), not a machine that cannot sandbox', async () => {
    const trial = EngineSandbox.start('required', { workRoots: ['.data/scratch'] });
    await expect(trial).rejects.toBeInstanceOf(SandboxSetupError);
    await expect(trial).rejects.toThrow(/this is a bug of Fileshift's sandbox, not of this machine/);
  });
});
