import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngineRuntimes } from '../src/engines/worker-engines.js';
import type { EngineRuntime } from '../src/platform/engine-runtime.js';
import { defaultEngineSandbox } from '../src/platform/sandbox/engine-sandbox.js';
import { ghostscriptEps, ghostscriptPdf, MARKUP_SAMPLES, sampleDocx, sampleEpub, writeArchiveSamples, writeMediaSamples, writeRasterSamples } from '../testing/index.js';
import { censusDuring, isolationProblems, type ProcessIsolation } from '../testing/sandboxed-processes.js';

/**
 * The census: while each engine converts a sample, every process of this worker's tree is read from /proc — own
 * network, mount and pid namespaces, a user that is neither root nor the worker's, no capabilities, no_new_privs, a
 * seccomp filter, an address-space limit. Only bubblewrap's own processes and the launcher that drops to the
 * sandbox's user are left out. Each case is run until its engine's process was seen (the quick ones may end between
 * two looks).
 */
const dir = mkdtempSync(join(tmpdir(), 'fileshift-census-'));
const runtimes = await createEngineRuntimes({ libreoffice: { size: 1 } });
const byId = new Map(runtimes.map((runtime) => [runtime.descriptor.id, runtime]));
afterAll(async () => {
  await Promise.all(runtimes.map((runtime) => runtime.stop?.()));
  rmSync(dir, { recursive: true, force: true });
});

interface Case {
  engine: string;
  from: string;
  to: string;
  /** The programs the engine runs (executables, or scripts for interpreters): the case repeats until one was seen. */
  processes: string[];
  input: () => string;
}

const samples = new Map<string, string>();
const sample = (format: string) => () => samples.get(format)!;

const CASES: Case[] = [
  { engine: 'sharp', from: 'png', to: 'webp', processes: ['node'], input: sample('png') },
  { engine: 'data', from: 'csv', to: 'json', processes: ['node'], input: sample('csv') },
  { engine: 'imagemagick', from: 'tga', to: 'png', processes: ['convert-im6.q16', 'identify-im6.q16'], input: sample('tga') },
  { engine: 'ffmpeg-audio', from: 'wav', to: 'mp3', processes: ['ffmpeg'], input: sample('wav') },
  { engine: 'ffmpeg-video', from: 'mp4', to: 'webm', processes: ['ffmpeg'], input: sample('mp4') },
  { engine: 'ffmpeg-subtitles', from: 'srt', to: 'vtt', processes: ['ffmpeg', 'ffprobe'], input: sample('srt') },
  { engine: 'libreoffice', from: 'docx', to: 'pdf', processes: ['soffice.bin'], input: sample('docx') },
  { engine: 'pandoc', from: 'md', to: 'html', processes: ['pandoc'], input: sample('md') },
  { engine: 'calibre', from: 'epub', to: 'mobi', processes: ['ebook-convert'], input: sample('epub') },
  { engine: 'poppler', from: 'pdf', to: 'png', processes: ['pdftoppm'], input: sample('pdf') },
  { engine: 'poppler', from: 'pdf', to: 'txt', processes: ['pdftotext'], input: sample('pdf') },
  { engine: 'ghostscript', from: 'eps', to: 'pdf', processes: ['gs'], input: sample('eps') },
  { engine: 'img2pdf', from: 'png', to: 'pdf', processes: ['img2pdf'], input: sample('png') },
  { engine: 'qpdf', from: 'pdf', to: 'zip', processes: ['qpdf'], input: sample('pdf') },
  { engine: 'archives', from: 'zip', to: 'tar', processes: ['bsdtar'], input: sample('zip') },
];
const MOST_TRIES = 15;

beforeAll(async () => {
  const made = join(dir, 'samples');
  mkdirSync(made);
  samples.set('png', join(made, 'picture.png'));
  await sharp({ create: { width: 400, height: 300, channels: 3, background: '#3366cc' } }).png().toFile(samples.get('png')!);
  const media = writeMediaSamples(made);
  for (const format of ['wav', 'mp4', 'srt']) samples.set(format, media.get(format)!);
  samples.set('tga', writeRasterSamples(made).get('tga')!);
  samples.set('zip', writeArchiveSamples(made).get('zip')!);
  samples.set('eps', ghostscriptEps(made, 'figure', 'Census figure'));
  samples.set('pdf', ghostscriptPdf(made, 'pages', ['First page of the census', 'Second page']));
  const write = (name: string, content: string | Buffer) => {
    writeFileSync(join(made, name), content);
    return join(made, name);
  };
  samples.set('docx', write('report.docx', sampleDocx()));
  samples.set('epub', write('book.epub', sampleEpub()));
  samples.set('md', write('notes.md', MARKUP_SAMPLES.md!));
  samples.set('csv', write('table.csv', 'name,count\nnorth,12\nsouth,7\n'));
});

/** Converts one case in a scratch directory of its own, as a worker does (the input copied in as `input`). */
async function convert(runtime: EngineRuntime, item: Case, attempt: number): Promise<void> {
  const scratch = join(dir, `job-${item.engine}-${item.to}-${attempt}`);
  mkdirSync(join(scratch, 'out'), { recursive: true });
  copyFileSync(item.input(), join(scratch, 'input'));
  const { files } = await runtime.convert(
    { inputPath: join(scratch, 'input'), outputDir: join(scratch, 'out'), from: item.from, to: item.to, options: {} },
    { signal: new AbortController().signal, limits: runtime.descriptor.limits, workDir: scratch },
  );
  expect(files.length).toBeGreaterThan(0);
}

describe('census of the engine processes', () => {
  it('every engine process of every engine is isolated by every layer of the sandbox', async () => {
    const sandbox = await defaultEngineSandbox();
    expect(sandbox.status.sandboxed).toBe(true);
    const separateUser = sandbox.status.layers.separateUser;
    const seenBy = new Map<string, Set<string>>();
    const processes: ProcessIsolation[] = [];
    for (const item of CASES) {
      const runtime = byId.get(item.engine);
      expect(runtime, `${item.engine} is not installed here`).toBeDefined();
      expect((await runtime!.probe()).available, `${item.engine} is not available here`).toBe(true);
      const names = new Set<string>();
      for (let attempt = 1; attempt <= MOST_TRIES && !item.processes.some((name) => names.has(name)); attempt++) {
        const seen = await censusDuring(() => convert(runtime!, item, attempt), { everyMs: 1 });
        processes.push(...seen);
        for (const found of seen) names.add(found.name);
      }
      seenBy.set(`${item.engine} ${item.from}→${item.to}`, names);
    }
    const kinds = [...new Set(processes.map((found) => found.name))].sort();
    console.info(`[sandbox census] ${processes.length} engine processes of ${kinds.length} kinds: ${kinds.join(', ')}`);
    for (const item of CASES) {
      const names = seenBy.get(`${item.engine} ${item.from}→${item.to}`)!;
      expect(item.processes.some((name) => names.has(name)), `${item.engine} ${item.from}→${item.to}: none of ${item.processes.join(', ')} seen (saw ${[...names].join(', ')})`).toBe(true);
    }
    const unisolated = processes.map((found) => ({ name: found.name, pid: found.pid, problems: isolationProblems(found, process.getuid?.() ?? -1, { separateUser }) })).filter((found) => found.problems.length > 0);
    expect(unisolated).toEqual([]);
  }, 600_000);
});
