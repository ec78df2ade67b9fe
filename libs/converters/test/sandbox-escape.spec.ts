import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EngineSandbox, type IdentityMode } from '../src/platform/sandbox/engine-sandbox.js';
import { DEFAULT_MEMORY_BYTES, type ProcessLimits } from '../src/platform/sandbox/process-limits.js';
import { SandboxedProcessRunner } from '../src/platform/sandboxed-process.runner.js';
import { seccompArchOf, SYSCALL_NUMBERS } from '../src/platform/sandbox/seccomp/syscall-table.js';
import { descendants, isolationOf, SANDBOX_MACHINERY } from '../testing/sandboxed-processes.js';
import { expectFailure } from './support/test-context.js';

/**
 * A stand-in "engine" (a Python script run through the one runner every engine goes through) tries to escape its
 * sandbox: the network, the host's files, writes outside its scratch directory, a fork bomb, a memory bomb, a CPU
 * loop, a huge file, forbidden system calls. Each attempt fails the way docs/engine-sandbox.md says; the service keeps serving.
 */
const PYTHON = '/usr/bin/python3';
const CHECKOUT = resolve(new URL('../../..', import.meta.url).pathname);
// What the canaries hold, and (apart) what their names carry: an engine that printed the names has read nothing.
const marker = `canary-${randomBytes(6).toString('hex')}`;
const tag = randomBytes(6).toString('hex');
const root = mkdtempSync(join(tmpdir(), 'fileshift-escape-'));
// The jobs' scratch root, as a worker's is: searchable, not listable.
chmodSync(root, 0o711);
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Canary files where an escaped engine would look: the data directory, the checkout, /root, another job's scratch. */
const canaries: string[] = [];
function plantCanary(path: string): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, marker);
  canaries.push(path);
}
afterAll(() => {
  for (const path of canaries) rmSync(path, { force: true });
});

const limits: ProcessLimits = { memoryBytes: DEFAULT_MEMORY_BYTES, residentBytes: DEFAULT_MEMORY_BYTES, cpuSeconds: 30, processes: 32, openFiles: 256, fileBytes: 1024 * 1024 + 1 };

let service: Server;
let canaryServer: Server;
let servicePort = 0;
let canaryPort = 0;
const canaryHits: string[] = [];
const listen = async (server: Server) => {
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return (server.address() as AddressInfo).port;
};

beforeAll(async () => {
  service = createServer((_request, response) => response.end('serving'));
  canaryServer = createServer((request, response) => {
    canaryHits.push(request.url ?? '');
    response.end('canary');
  });
  servicePort = await listen(service);
  canaryPort = await listen(canaryServer);
  plantCanary(join(CHECKOUT, `.sandbox-${tag}.txt`));
  plantCanary(join(CHECKOUT, '.data', `sandbox-${tag}.txt`));
  if (process.getuid?.() === 0) plantCanary(`/root/.sandbox-${tag}.txt`);
});
afterAll(() => {
  service?.close();
  canaryServer?.close();
});

// The modes a worker of this user may run its engines in (a root worker never runs them in root's own user namespace).
/** This test's processes inside a sandbox (bubblewrap's own left out). */
const engineProcesses = () => descendants(process.pid).map(isolationOf).filter((found) => found?.ownNamespaces.pid && !SANDBOX_MACHINERY.has(found.name));

const identities: IdentityMode[] = process.getuid?.() === 0 ? ['own-user', 'own-user-namespace'] : ['user-namespace'];

describe.each(identities)('a stand-in engine in the sandbox (identity %s)', (identity) => {
  let sandbox: EngineSandbox;
  let runner: SandboxedProcessRunner;
  let scratch = '';
  let otherJob = '';
  const python = (script: string, overrides: Partial<ProcessLimits> = {}, timeoutMs = 20_000) =>
    new SandboxedProcessRunner({ limits: { ...limits, ...overrides }, sockets: 'unix-only' }, sandbox).run({ command: PYTHON, args: ['-I', '-c', script], scratchDir: scratch, timeoutMs });

  beforeAll(async () => {
    sandbox = await EngineSandbox.start('required', { identities: [identity] });
    runner = new SandboxedProcessRunner({ limits, sockets: 'unix-only' }, sandbox);
    scratch = mkdtempSync(join(root, 'job-'));
    otherJob = mkdtempSync(join(root, 'other-job-'));
    plantCanary(join(otherJob, 'input'));
  });

  it('is sandboxed with this identity', () => {
    expect(sandbox.status.sandboxed).toBe(true);
    expect(sandbox.status.identity).toBe(identity);
    expect(runner).toBeDefined();
  });

  it('has no network but its own loopback: a connection to the service, Redis, PostgreSQL or a canary on the host’s 127.0.0.1 ends the run as security_rejected', async () => {
    const devices = await python("print(open('/proc/net/dev').read())");
    expect(devices.stdout).toMatch(/\blo:/);
    expect(devices.stdout).not.toMatch(/\b(eth|ens|enp|veth|docker|wlan)\d*:/);
    for (const port of [servicePort, 6379, 5432, canaryPort]) {
      const script = `import socket\ns = socket.create_connection(('127.0.0.1', ${port}), timeout=2)\ns.sendall(b'GET /escaped HTTP/1.0\\r\\n\\r\\n')\nprint(s.recv(100))`;
      await expectFailure(python(script), 'security_rejected', scratch);
    }
    expect(canaryHits).toEqual([]);
  });

  it('cannot read a canary in the data directory, the checkout, /root or another job’s scratch directory: they are not there', async () => {
    const script = `import sys\nfor path in sys.argv[1:]:\n    try:\n        print('READ', path, open(path).read())\n    except OSError as error:\n        print('MISSING', path, error.errno)`;
    const result = await new SandboxedProcessRunner({ limits, sockets: 'unix-only' }, sandbox).run({ command: PYTHON, args: ['-I', '-c', script, ...canaries], scratchDir: scratch, timeoutMs: 20_000 });
    expect(canaries.length).toBeGreaterThanOrEqual(3);
    expect(result.stdout).not.toContain(marker);
    expect(result.stdout.trim().split('\n')).toEqual(canaries.map((path) => expect.stringMatching(new RegExp(`^MISSING ${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} 2$`))));
  });

  it('writes nowhere but its scratch directory', async () => {
    // The checkout, another job, /usr: refused. /etc, / and /tmp of the sandbox are its own, in memory: whatever lands
    // there goes with it, and never reaches the host's.
    const refused = [join(CHECKOUT, `escape-${tag}`), join(otherJob, `escape-${tag}`), `/usr/escape-${tag}`];
    const targets = [...refused, `/etc/escape-${tag}`, `/escape-${tag}`, `/tmp/escape-${tag}`];
    const script = `import sys\nfor path in sys.argv[1:]:\n    try:\n        open(path, 'w').write('x')\n        print('WROTE', path)\n    except OSError as error:\n        print('REFUSED', path, error.errno)\nopen('in-scratch', 'w').write('ok')\nprint('SCRATCH ok')`;
    const result = await new SandboxedProcessRunner({ limits, sockets: 'unix-only' }, sandbox).run({ command: PYTHON, args: ['-I', '-c', script, ...targets], scratchDir: scratch, timeoutMs: 20_000 });
    expect(result.stdout).toContain('SCRATCH ok');
    for (const target of targets) expect(existsSync(target), target).toBe(false);
    // Its private /tmp takes a file, which goes with the sandbox: not the host's /tmp.
    expect(result.stdout).toContain(`WROTE /tmp/escape-${tag}`);
    for (const target of refused) expect(result.stdout).toContain(`REFUSED ${target}`);
  });

  it('a fork bomb stops at its process limit, and ends with the run', async () => {
    const script = `import os, time\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        time.sleep(0.05)`;
    let most = 0;
    const sampler = setInterval(() => most = Math.max(most, engineProcesses().length), 20);
    try {
      await expectFailure(python(script, {}, 3000), 'timeout', scratch);
    } finally {
      clearInterval(sampler);
    }
    expect(most).toBeGreaterThan(limits.processes / 2);
    expect(most).toBeLessThanOrEqual(limits.processes);
    await new Promise((done) => setTimeout(done, 200));
    expect(engineProcesses()).toEqual([]);
  });

  it('a memory bomb ends as file_too_large at the address-space limit', async () => {
    const error = await expectFailure(python('x = bytearray(2 * 1024 ** 3)\nprint(len(x))', { memoryBytes: 512 * 1024 ** 2 }), 'file_too_large', scratch);
    expect(error.message).toContain('512 MB');
  });

  it('a CPU loop ends as timeout at its CPU limit, well before its time limit', async () => {
    const started = Date.now();
    await expectFailure(python('while True: pass', { cpuSeconds: 1 }, 60_000), 'timeout', scratch);
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it('a file past the size limit ends as file_too_large', async () => {
    await expectFailure(python("open('big', 'wb').write(b'x' * 2 * 1024 * 1024)"), 'file_too_large', scratch);
  });

  it('a forbidden system call (ptrace, unshare, mount, bpf) ends the run as security_rejected', async () => {
    const call = (number: number) => `import ctypes\nctypes.CDLL(None, use_errno=True).syscall(${number}, 0, 0, 0, 0)\nprint('survived')`;
    // The numbers of this machine's architecture: the filter is built for each one it supports, and a machine it does
    // not support has no seccomp layer at all, which must fail here rather than pass unchecked.
    const arch = seccompArchOf(process.arch);
    expect(arch, `no seccomp filter for ${process.arch}`).toBeDefined();
    for (const name of ['ptrace', 'unshare', 'mount', 'bpf'] as const) await expectFailure(python(call(SYSCALL_NUMBERS[name][arch!])), 'security_rejected', scratch);
  });

  it('gives back every user it lent, and the service kept serving', async () => {
    expect(sandbox.usersLent).toBe(0);
    expect(await (await fetch(`http://127.0.0.1:${servicePort}/`)).text()).toBe('serving');
  });
});
