import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIBREOFFICE_DESCRIPTOR } from './libreoffice.descriptor.js';
import { defaultLibreOfficePoolSize } from './libreoffice.descriptor.js';
import { LibreOfficeRuntime } from './libreoffice.runtime.js';
import { expectDocument, pdfPages, pgrep } from '../../../testing/document-checks.js';
import { descendants } from '../../../testing/sandboxed-processes.js';
import { SAMPLE_HEADING, sampleDocx } from '../../../testing/office-samples.js';
import { convertStep, expectFailure, testContext } from '../../../test/support/test-context.js';

const dir = mkdtempSync(join(tmpdir(), 'fileshift-lo-supervision-'));
const docx = join(dir, 'sample.docx');
/** A spreadsheet LibreOffice needs seconds to lay out as PDF: a conversion that is still running when we act. */
const bigCsv = join(dir, 'big.csv');
const pools: LibreOfficeRuntime[] = [];
/** A process's command line, NUL-separated (empty once it is gone). */
const commandLineOf = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return '';
  }
};
const quiet = () => undefined;

/** A pool of its own, with its own directory for instance directories. */
function pool(options: ConstructorParameters<typeof LibreOfficeRuntime>[0] = {}) {
  const workRoot = mkdtempSync(join(dir, 'pool-'));
  const runtime = new LibreOfficeRuntime({ size: 1, workRoot, log: quiet, ...options });
  pools.push(runtime);
  return { runtime, workRoot };
}

const onlyInstance = async (runtime: LibreOfficeRuntime) => {
  const { instances } = await runtime.inspect();
  expect(instances).toHaveLength(1);
  return instances[0]!;
};

/** Nothing of that instance is left: no process carries its profile path or pipe name, no pipe, no directory. */
async function expectGone(instance: { tag: string; profileDir: string }) {
  expect(pgrep(instance.profileDir)).toEqual([]);
  expect(pgrep(instance.tag)).toEqual([]);
  expect(existsSync(instance.profileDir)).toBe(false);
  expect(readdirSync('/tmp').filter((name) => name.startsWith('OSL_PIPE_') && name.endsWith(instance.tag))).toEqual([]);
}

/** Waits until an instance not yet in `victims` is converting, then SIGKILLs its soffice.bin. */
async function killWhenBusy(runtime: LibreOfficeRuntime, victims: Set<string>) {
  for (;;) {
    const busy = (await runtime.inspect()).instances.find((instance) => !instance.idle && instance.officePid && !victims.has(instance.tag));
    if (busy) {
      victims.add(busy.tag);
      execFileSync('kill', ['-9', String(busy.officePid)]);
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

beforeAll(async () => {
  const probe = await new LibreOfficeRuntime({ log: quiet }).probe();
  if (!probe.available) console.error(`\n*** ENGINE MISSING: LibreOffice (${probe.problem}); these tests FAIL without it. ***\n`);
  writeFileSync(docx, sampleDocx());
  const rows = Array.from({ length: 60_000 }, (_, i) => `${i},row ${i},${i * 3},${(i * 7) % 13},some longer text in a cell ${i}`);
  writeFileSync(bigCsv, `a,b,c,d,e\n${rows.join('\n')}\n`);
});

afterAll(async () => {
  await Promise.all(pools.map((runtime) => runtime.stop()));
  rmSync(dir, { recursive: true, force: true });
});

describe('LibreOffice pool supervision', () => {
  it('sizes the pool from the cores by default (half, 1 to 4) and takes a size', () => {
    expect(defaultLibreOfficePoolSize(1)).toBe(1);
    expect(defaultLibreOfficePoolSize(2)).toBe(1);
    expect(defaultLibreOfficePoolSize(8)).toBe(4);
    expect(defaultLibreOfficePoolSize(64)).toBe(4);
    expect(new LibreOfficeRuntime({ size: 3, log: quiet }).size).toBe(3);
    expect(() => new LibreOfficeRuntime({ size: 0 })).toThrow(/positive integer/);
  });

  it('probes without starting anything, and names the Debian packages when something is missing', async () => {
    // This test's own processes only: other suites' instances come and go on the same machine.
    const ownInstances = () => descendants(process.pid).filter((pid) => commandLineOf(pid).includes('fileshift-lo-'));
    const before = ownInstances();
    const missing = await new LibreOfficeRuntime({ soffice: '/nonexistent/soffice', log: quiet }).probe();
    expect(missing.available).toBe(false);
    for (const name of LIBREOFFICE_DESCRIPTOR.debianPackages) expect(missing.problem).toContain(name);
    const noUno = await new LibreOfficeRuntime({ python: '/bin/false', log: quiet }).probe();
    expect(noUno.available).toBe(false);
    expect(noUno.problem).toMatch(/python3-uno/);
    expect(ownInstances()).toEqual(before);
  });

  it('fails conversions fast and retryably (provider_error) when LibreOffice cannot start', async () => {
    const { runtime } = pool({ soffice: '/nonexistent/soffice' });
    const error = await expectFailure(convertStep(runtime, { inputPath: docx, from: 'docx', to: 'pdf' }, dir), 'provider_error', dir);
    expect(error.retryable).toBe(true);
    expect(error.diagnostics).toMatch(/python3-uno/);
    await runtime.stop();
  });

  it('starts in the background: start() is not needed, conversions asked for meanwhile wait for the instance', async () => {
    const { runtime } = pool();
    // No start(): the first conversion starts the pool and waits for it; the second queues behind it.
    const started = Date.now();
    const outputs = await Promise.all([
      convertStep(runtime, { inputPath: docx, from: 'docx', to: 'pdf' }, dir).then((files) => ({ files, ms: Date.now() - started })),
      convertStep(runtime, { inputPath: docx, from: 'docx', to: 'odt' }, dir),
    ]);
    expectDocument(outputs[0].files[0]!, 'pdf', SAMPLE_HEADING);
    expectDocument(outputs[1][0]!, 'odt', SAMPLE_HEADING);
    const warm = Date.now();
    await convertStep(runtime, { inputPath: docx, from: 'docx', to: 'pdf' }, dir);
    console.info(`[libreoffice figures] one instance, cold: docx → pdf including the instance start ${outputs[0].ms} ms; the same conversion warm ${Date.now() - warm} ms`);
    await runtime.stop();
  });

  it('serves the queue in order (one instance, one document at a time)', async () => {
    const { runtime } = pool();
    await runtime.start();
    const finished: number[] = [];
    await Promise.all(
      [0, 1, 2, 3].map((n) => convertStep(runtime, { inputPath: docx, from: 'docx', to: n % 2 ? 'odt' : 'txt' }, dir).then(() => finished.push(n))),
    );
    expect(finished).toEqual([0, 1, 2, 3]);
    await runtime.stop();
  });

  describe('restarts', () => {
    const replaced: string[] = [];
    const { runtime, workRoot } = pool({ maxConversionsPerInstance: 3, onInstanceReplaced: (reason) => replaced.push(reason) });

    it('replaces an instance after K conversions (K = 3): the soffice pid changes after the third', async () => {
      await runtime.start();
      const first = await onlyInstance(runtime);
      const pids: Array<number | undefined> = [];
      for (let n = 1; n <= 4; n++) {
        await convertStep(runtime, { inputPath: docx, from: 'docx', to: 'pdf' }, dir);
        pids.push((await onlyInstance(runtime)).officePid);
      }
      // After the third, the instance was retired at once; the fourth conversion waited for the new one.
      expect(pids[0]).toBe(first.officePid);
      expect(pids[1]).toBe(first.officePid);
      expect(pids[3]).not.toBe(first.officePid);
      const second = await onlyInstance(runtime);
      expect(second.tag).not.toBe(first.tag);
      expect(second.conversions).toBe(1);
      expect(replaced).toEqual(['retired']);
      await expectGone(first);
    });

    it('replaces an instance whose soffice.bin was killed between conversions; the next conversion succeeds', async () => {
      await runtime.start();
      const victim = await onlyInstance(runtime);
      execFileSync('kill', ['-9', String(victim.officePid)]);
      const [out] = (await convertStep(runtime, { inputPath: docx, from: 'docx', to: 'pdf' }, dir)) as [string];
      expectDocument(out, 'pdf', SAMPLE_HEADING);
      const replacement = await onlyInstance(runtime);
      expect(replacement.tag).not.toBe(victim.tag);
      expect(replacement.officePid).not.toBe(victim.officePid);
      expect(replaced.at(-1)).toBe('crashed');
      await expectGone(victim);
    });

    it('retries a conversion whose soffice.bin died during it on a fresh instance once (the crash may not be the document’s)', async () => {
      await runtime.start();
      const victim = await onlyInstance(runtime);
      const converting = convertStep(runtime, { inputPath: bigCsv, from: 'csv', to: 'pdf' }, dir);
      await killWhenBusy(runtime, new Set());
      const [out] = (await converting) as [string];
      expect(pdfPages(out)).toBeGreaterThan(1);
      expect((await onlyInstance(runtime)).tag).not.toBe(victim.tag);
      await expectGone(victim);
    });

    it('fails a conversion whose instance died twice as unsupported_or_corrupt_input, not retryable (the document is the likely cause); the pool goes on', async () => {
      await runtime.start();
      const victims = new Set<string>();
      const converting = convertStep(runtime, { inputPath: bigCsv, from: 'csv', to: 'pdf' }, dir);
      await killWhenBusy(runtime, victims);
      await killWhenBusy(runtime, victims);
      const error = await expectFailure(converting, 'unsupported_or_corrupt_input', dir);
      expect(error.retryable).toBe(false);
      expect(error.message).toBe('The document engine crashed on this spreadsheet twice; it cannot be converted.');
      const [out] = (await convertStep(runtime, { inputPath: docx, from: 'docx', to: 'pdf' }, dir)) as [string];
      expectDocument(out, 'pdf', SAMPLE_HEADING);
      expect(victims.has((await onlyInstance(runtime)).tag)).toBe(false);
    });

    it('kills a conversion that exceeds its time limit (timeout, retryable), with its whole process tree; the next one succeeds', async () => {
      await runtime.start();
      const hung = await onlyInstance(runtime);
      expect(pgrep(hung.profileDir).length).toBeGreaterThanOrEqual(2); // oosplash, soffice.bin
      const error = await expectFailure(convertStep(runtime, { inputPath: bigCsv, from: 'csv', to: 'pdf' }, dir, testContext(runtime, dir, { timeoutMs: 300 })), 'timeout', dir);
      expect(error.retryable).toBe(true);
      await expectGone(hung);
      const [out] = (await convertStep(runtime, { inputPath: docx, from: 'docx', to: 'pdf' }, dir)) as [string];
      expectDocument(out, 'pdf', SAMPLE_HEADING);
      expect((await onlyInstance(runtime)).tag).not.toBe(hung.tag);
    });

    it('kills a conversion whose AbortSignal fires, and one waiting in the queue leaves it', async () => {
      await runtime.start();
      const busy = await onlyInstance(runtime);
      const running = new AbortController();
      const waiting = new AbortController();
      const first = convertStep(runtime, { inputPath: bigCsv, from: 'csv', to: 'pdf' }, dir, { signal: running.signal });
      const second = convertStep(runtime, { inputPath: docx, from: 'docx', to: 'pdf' }, dir, { signal: waiting.signal });
      waiting.abort();
      const queued = await expectFailure(second, 'unknown', dir);
      expect(queued.message).toMatch(/cancelled/);
      setTimeout(() => running.abort(), 300);
      const aborted = await expectFailure(first, 'unknown', dir);
      expect(aborted.message).toMatch(/cancelled/);
      await expectGone(busy);
      const [out] = (await convertStep(runtime, { inputPath: docx, from: 'docx', to: 'odt' }, dir)) as [string];
      expectDocument(out, 'odt', SAMPLE_HEADING);
      // An already aborted signal never reaches an instance.
      const before = await onlyInstance(runtime);
      const aborted2 = new AbortController();
      aborted2.abort();
      await expectFailure(convertStep(runtime, { inputPath: docx, from: 'docx', to: 'pdf' }, dir, { signal: aborted2.signal }), 'unknown', dir);
      expect((await onlyInstance(runtime)).officePid).toBe(before.officePid);
    });

    it('stop() leaves no soffice or bridge process, no pipe and no instance directory behind', async () => {
      await runtime.start();
      const last = await onlyInstance(runtime);
      expect(last.processes.map((p) => p.name).sort()).toEqual(expect.arrayContaining(['oosplash', 'soffice.bin', 'python3']));
      await runtime.stop();
      await expectGone(last);
      expect(readdirSync(workRoot)).toEqual([]);
      expect((await runtime.inspect()).instances).toEqual([]);
    });
  });

  it('an orphaned instance (its Node process gone) dies with it, and the next pool removes its directory', async () => {
    // A child Node process starts a pool, converts once, and is SIGKILLed: nothing may survive it.
    const workRoot = mkdtempSync(join(dir, 'orphan-'));
    mkdirSync(join(workRoot, 'out'));
    const script = `
      import { LibreOfficeRuntime } from ${JSON.stringify(new URL('./libreoffice.runtime.ts', import.meta.url).pathname)};
      const runtime = new LibreOfficeRuntime({ size: 1, workRoot: ${JSON.stringify(workRoot)}, log: () => {} });
      await runtime.convert({ inputPath: ${JSON.stringify(docx)}, outputDir: ${JSON.stringify(join(workRoot, 'out'))}, from: 'docx', to: 'pdf', options: {} },
        { signal: new AbortController().signal, limits: runtime.descriptor.limits, workDir: ${JSON.stringify(workRoot)} });
      const { instances } = await runtime.inspect();
      console.log(JSON.stringify(instances[0]));
      setInterval(() => {}, 1000);
    `;
    const { spawn } = await import('node:child_process');
    const child = spawn(process.execPath, ['--conditions=@fileshift/source', '--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    const line = await new Promise<string>((resolve) => child.stdout!.once('data', (chunk: Buffer) => resolve(chunk.toString())));
    const instance = JSON.parse(line) as { tag: string; profileDir: string };
    expect(pgrep(instance.profileDir).length).toBeGreaterThanOrEqual(2);
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    // Reaped, not a zombie: a zombie's pid still answers, and its directories are not yet an orphan's.
    await exited;
    for (let wait = 0; wait < 50 && pgrep(instance.tag).length > 0; wait++) await new Promise((r) => setTimeout(r, 100));
    expect(pgrep(instance.tag)).toEqual([]);
    // Its sandbox died with it; its directory waits for the next pool under the same root.
    const next = new LibreOfficeRuntime({ size: 1, workRoot, log: () => {} });
    await next.start();
    await next.stop();
    await expectGone(instance);
  });
});
