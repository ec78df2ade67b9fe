import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build, stop } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { DATA_DESCRIPTOR } from '../src/engines/data/data.descriptor.js';
import { NodeHostPool } from '../src/platform/node-host/node-host.pool.js';
import { NodeHostedRuntime } from '../src/platform/node-host/node-hosted.runtime.js';
import { descendants, isolationOf } from '../testing/sandboxed-processes.js';
import { expectFailure } from './support/test-context.js';

/**
 * The Node host is where uploads are parsed by JavaScript (and libvips): whatever an upload does to it — a heap
 * exhausted, a CPU loop, a crash — ends that conversion with its failure type and that host, never the worker; the
 * pool starts another and the next conversion succeeds.
 */
const dir = mkdtempSync(join(tmpdir(), 'fileshift-node-host-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
// A small heap, so that a CSV of a few megabytes exhausts it.
const pool = new NodeHostPool({ size: 1, heapMb: 48 });
afterAll(() => pool.stop());
const runtime = new NodeHostedRuntime(DATA_DESCRIPTOR, 'data', pool);

let jobs = 0;
function job(content: string): { inputPath: string; outputDir: string; workDir: string } {
  const workDir = join(dir, `job-${++jobs}`);
  mkdirSync(join(workDir, 'out'), { recursive: true });
  writeFileSync(join(workDir, 'input'), content);
  return { inputPath: join(workDir, 'input'), outputDir: join(workDir, 'out'), workDir };
}
const convert = (files: ReturnType<typeof job>, limits = {}, signal = new AbortController().signal) =>
  runtime.convert({ inputPath: files.inputPath, outputDir: files.outputDir, from: 'csv', to: 'json', options: {} }, { signal, limits: { ...DATA_DESCRIPTOR.limits, ...limits }, workDir: files.workDir });
const hostPids = () => descendants(process.pid).map(isolationOf).filter((found) => found?.name === 'node-host.mjs' || (found?.name === 'node' && found.ownNamespaces.pid)).map((found) => found!.pid);
const small = () => job('name,count\nnorth,12\nsouth,7\n');
const bigCsv = () => `a,b,c,d\n${'north,12,south,7\n'.repeat(400_000)}`;

describe('the Node host', () => {
  it('converts, in a sandboxed process of its own', async () => {
    const { files } = await convert(small());
    expect(JSON.parse(readFileSync(files[0]!, 'utf8'))).toEqual([{ name: 'north', count: '12' }, { name: 'south', count: '7' }]);
    expect(hostPids().length).toBeGreaterThan(0);
  });

  it('an upload that exhausts the host’s heap ends file_too_large; the worker lives on, and the next conversion gets a fresh host', async () => {
    const before = hostPids();
    const error = await expectFailure(convert(job(bigCsv())), 'file_too_large', dir);
    expect(error.message).toMatch(/memory/);
    expect((await convert(small())).files).toHaveLength(1);
    expect(hostPids()).not.toEqual(before);
  });

  it('a conversion past its CPU time ends timeout and takes its host with it', async () => {
    // The host's usual heap, so that this input costs time rather than memory.
    const roomy = new NodeHostPool({ size: 1 });
    try {
      const data = new NodeHostedRuntime(DATA_DESCRIPTOR, 'data', roomy);
      const files = job(bigCsv().repeat(6));
      const started = Date.now();
      await expectFailure(
        data.convert({ inputPath: files.inputPath, outputDir: files.outputDir, from: 'csv', to: 'json', options: {} }, { signal: new AbortController().signal, limits: { ...DATA_DESCRIPTOR.limits, cpuSeconds: 0.2 }, workDir: files.workDir }),
        'timeout',
        dir,
      );
      expect(Date.now() - started).toBeLessThan(DATA_DESCRIPTOR.limits.timeoutMs);
    } finally {
      await roomy.stop();
    }
  });

  it('an abort ends the conversion at once, as cancelled', async () => {
    const controller = new AbortController();
    const running = convert(job(bigCsv()), {}, controller.signal);
    setTimeout(() => controller.abort(), 50);
    const error = await expectFailure(running, 'unknown', dir);
    expect(error.message).toContain('cancelled');
    expect((await convert(small())).files).toHaveLength(1);
  });

  it('a host that died while idle is not offered: the next conversion gets a fresh one', async () => {
    await convert(small());
    for (const pid of hostPids()) process.kill(pid, 'SIGKILL');
    await new Promise((done) => setTimeout(done, 200));
    expect((await convert(small())).files).toHaveLength(1);
  });
  it('a request leaves nothing in the host’s directory: its staged input and its output directory are emptied after each', async () => {
    const root = mkdtempSync(join(dir, 'host-root-'));
    const own = new NodeHostPool({ size: 1, workRoot: root });
    try {
      const data = new NodeHostedRuntime(DATA_DESCRIPTOR, 'data', own);
      const run = (files: ReturnType<typeof job>) =>
        data.convert({ inputPath: files.inputPath, outputDir: files.outputDir, from: 'csv', to: 'json', options: {} }, { signal: new AbortController().signal, limits: DATA_DESCRIPTOR.limits, workDir: files.workDir });
      const leftovers = () => {
        const [hostDir] = readdirSync(root);
        return [...readdirSync(join(root, hostDir!, 'exchange')), ...readdirSync(join(root, hostDir!, 'out'))];
      };
      const first = await run(small());
      expect(leftovers()).toEqual([]);
      const second = await run(job('name\nwest\n'));
      expect(second.files).toHaveLength(1);
      expect(JSON.parse(readFileSync(second.files[0]!, 'utf8'))).toEqual([{ name: 'west' }]);
      expect(first.files[0]).not.toBe(second.files[0]);
      expect(leftovers()).toEqual([]);
    } finally {
      await own.stop();
    }
  });
});

describe('the worker parses no upload', () => {
  // esbuild's service is a child process: it must not outlive the test (the census counts this process's children).
  afterAll(() => stop());
  /** The source modules a bundle of `entry` reaches, by esbuild's own import graph (packages left out). */
  const modulesOf = async (entry: string) =>
    Object.keys((await build({ entryPoints: [entry], bundle: true, platform: 'node', format: 'esm', write: false, metafile: true, packages: 'external', logLevel: 'silent' })).metafile.inputs);

  it('the readers of uploads (books, packages, spreadsheets, PDF text, pictures) are reachable from the Node host alone', async () => {
    const [worker, host] = await Promise.all([modulesOf('src/worker.ts'), modulesOf('src/engines/node-host-tasks.ts')]);
    const readers = [
      'src/engines/calibre/ebook-input.screen.ts',
      'src/engines/calibre/mobi-text.ts',
      'src/shared/zip-rewrite.ts',
      'src/shared/zip-entries.ts',
      'src/engines/libreoffice/loadable-input.ts',
      'src/engines/data/data.runtime.ts',
      'src/engines/office-markdown/office-markdown.runtime.ts',
      'src/engines/sharp/sharp.runtime.ts',
      'src/engines/poppler/pdf-text.ts',
      'src/engines/img2pdf/image-pages.ts',
      'src/engines/ocr/ocr-pictures.ts',
    ];
    expect(readers.filter((reader) => !host.includes(reader)), 'readers the host does not run').toEqual([]);
    expect(readers.filter((reader) => worker.includes(reader)), 'readers in the worker').toEqual([]);
  });
});
