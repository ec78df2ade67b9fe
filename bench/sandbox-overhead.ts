/**
 * What the engine sandbox costs, measured in one run: the same conversions through the same runtimes with
 * ENGINE_SANDBOX=required and with it off, interleaved round by round (this machine is noisy: the two sides see the
 * same noise).
 *  - one-shot engines: png → pdf (img2pdf; the image read in the Node host, warm in both), wav → mp3 (ffprobe +
 *    ffmpeg), md → html (pandoc): p50 of each side, the difference, and the difference per engine process started;
 *    a bare `true`: the sandbox's start alone (bubblewrap, seccomp, setpriv, prlimit) against `nice true`.
 *  - warm engines, whose sandbox starts once: a 1.1 MB PNG → webp in the Node host (sharp), docx → pdf (LibreOffice),
 *    html → pdf (Chromium): the ratio inside / outside. And the same PNG → webp by sharp in this process, with one
 *    libvips thread (the Node host's) and with its default: where a conversion in the host and one in the worker differ.
 * Targets (the sandbox issues): at most 15 ms added per one-shot engine process at p50; a warm engine's conversion
 * inside at most 1.05× the same outside.
 *   npm run bench:sandbox   (builds the converters; needs bubblewrap, img2pdf, ffmpeg, pandoc, LibreOffice, Chromium)
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { createEngineRuntimes, EngineSandbox, type EngineRuntime, SandboxedProcessRunner } from '@fileshift/converters/worker';
import { sampleDocx, sampleHtml } from '@fileshift/converters/testing';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 40);
const dir = mkdtempSync(join(tmpdir(), 'fileshift-bench-sandbox-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));

const png = join(dir, 'picture.png');
await sharp({ create: { width: 640, height: 480, channels: 3, background: '#3366cc' } }).png().toFile(png);
const wav = join(dir, 'tone.wav');
execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=2', wav]);
// About 1.1 MB: the PNG the job benchmark converts.
const photo = join(dir, 'photo.png');
await sharp({ create: { width: 700, height: 560, channels: 3, background: '#000', noise: { type: 'gaussian', mean: 128, sigma: 50 } } }).png().toFile(photo);
const docx = join(dir, 'report.docx');
writeFileSync(docx, sampleDocx());
const html = join(dir, 'page.html');
writeFileSync(html, sampleHtml());
const md = join(dir, 'notes.md');
writeFileSync(md, `# Notes\n\n${'A paragraph of *words*, with a [link](https://example.com).\n\n'.repeat(20)}- one\n- two\n`);

/** Each case, and how many engine processes one conversion starts (what the difference is shared among). */
const CASES = [
  { name: 'png → pdf', engine: 'img2pdf', from: 'png', to: 'pdf', input: png, processes: 1 },
  { name: 'wav → mp3', engine: 'ffmpeg-audio', from: 'wav', to: 'mp3', input: wav, processes: 2 },
  { name: 'md → html', engine: 'pandoc', from: 'md', to: 'html', input: md, processes: 1 },
] as const;
/** Warm engines: their sandbox starts once, so a conversion's own cost is compared (target ≤ 1.05×). */
const WARM = [
  { name: 'png → webp, 1.1 MB (Node host: sharp)', engine: 'sharp', from: 'png', to: 'webp', input: photo, processes: 0 },
  { name: 'docx → pdf (LibreOffice)', engine: 'libreoffice', from: 'docx', to: 'pdf', input: docx, processes: 0 },
  { name: 'html → pdf (Chromium)', engine: 'chromium', from: 'html', to: 'pdf', input: html, processes: 0 },
] as const;

const sides = {
  sandboxed: await EngineSandbox.start('required'),
  unsandboxed: await EngineSandbox.start('off'),
};
const runtimes = Object.fromEntries(
  await Promise.all(
    Object.entries(sides).map(async ([side, sandbox]) => [side, new Map((await createEngineRuntimes({ sandbox, libreoffice: { size: 1 } })).map((runtime) => [runtime.descriptor.id, runtime]))]),
  ),
) as Record<keyof typeof sides, Map<string, EngineRuntime>>;

let jobs = 0;
async function convertOnce(runtime: EngineRuntime, item: (typeof CASES)[number] | (typeof WARM)[number]): Promise<number> {
  const scratch = join(dir, `job-${++jobs}`);
  mkdirSync(join(scratch, 'out'), { recursive: true });
  copyFileSync(item.input, join(scratch, 'input'));
  const started = performance.now();
  await runtime.convert(
    { inputPath: join(scratch, 'input'), outputDir: join(scratch, 'out'), from: item.from, to: item.to, options: {} },
    { signal: new AbortController().signal, limits: runtime.descriptor.limits, workDir: scratch },
  );
  const elapsed = performance.now() - started;
  rmSync(scratch, { recursive: true, force: true });
  return elapsed;
}

async function bareStart(sandbox: EngineSandbox): Promise<number> {
  const started = performance.now();
  const result = await new SandboxedProcessRunner(undefined, sandbox).run({ command: '/usr/bin/true', args: [], timeoutMs: 10_000 });
  if (result.exitCode !== 0) throw new Error('true failed');
  return performance.now() - started;
}

/** sharp in this process, as a worker without the Node host would run it: `threads` libvips threads. */
async function inProcess(threads: number): Promise<number> {
  sharp.concurrency(threads);
  const started = performance.now();
  await sharp(photo).webp().toBuffer();
  return performance.now() - started;
}

const p50 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const times: Record<string, Record<keyof typeof sides, number[]>> = {};
const record = (name: string, side: keyof typeof sides, value: number) => ((times[name] ??= { sandboxed: [], unsandboxed: [] })[side].push(value));

// Warm-up: the Node hosts start, the caches fill (not counted).
for (const side of Object.keys(sides) as Array<keyof typeof sides>) for (const item of [...CASES, ...WARM]) await convertOnce(runtimes[side].get(item.engine)!, item);
// libvips's own default: a thread per core (the Node host sets one: the pool runs a host per core).
const defaultThreads = availableParallelism();
const inProcessTimes: Record<string, number[]> = { one: [], default: [] };
for (let round = 0; round < ROUNDS; round++) {
  // Interleaved, the order alternating from round to round.
  const order = (round % 2 === 0 ? ['sandboxed', 'unsandboxed'] : ['unsandboxed', 'sandboxed']) as Array<keyof typeof sides>;
  for (const side of order) {
    record('start of `true`', side, await bareStart(sides[side]));
    for (const item of [...CASES, ...WARM]) record(item.name, side, await convertOnce(runtimes[side].get(item.engine)!, item));
  }
  inProcessTimes.one!.push(await inProcess(1));
  inProcessTimes.default!.push(await inProcess(defaultThreads));
}
await Promise.all(Object.values(runtimes).flatMap((map) => [...map.values()].map((runtime) => runtime.stop?.())));

const rows = [['start of `true`', 1] as const, ...CASES.map((item) => [item.name, item.processes] as const)];
console.log(`\nEngine sandbox cost per conversion, ${ROUNDS} interleaved rounds (p50; ${sides.sandboxed.status.description})`);
console.log('| conversion | sandboxed | unsandboxed | added | engine processes | added per process |');
console.log('|---|---|---|---|---|---|');
for (const [name, processes] of rows) {
  const { sandboxed, unsandboxed } = times[name]!;
  const added = p50(sandboxed) - p50(unsandboxed);
  console.log(`| ${name} | ${p50(sandboxed).toFixed(1)} ms | ${p50(unsandboxed).toFixed(1)} ms | ${added.toFixed(1)} ms | ${processes} | ${(added / processes).toFixed(1)} ms |`);
}
console.log('Target: at most 15 ms added per engine process at p50.');
console.log(`\nWarm engines: a conversion inside the sandbox against the same outside it (p50)`);
console.log('| conversion | sandboxed | unsandboxed | inside / outside |');
console.log('|---|---|---|---|');
for (const item of WARM) {
  const { sandboxed, unsandboxed } = times[item.name]!;
  console.log(`| ${item.name} | ${p50(sandboxed).toFixed(1)} ms | ${p50(unsandboxed).toFixed(1)} ms | ${(p50(sandboxed) / p50(unsandboxed)).toFixed(3)}× |`);
}
console.log(`| png → webp, 1.1 MB, sharp in this process, 1 libvips thread | ${p50(inProcessTimes.one!).toFixed(1)} ms | | |`);
console.log(`| png → webp, 1.1 MB, sharp in this process, ${defaultThreads} libvips threads | ${p50(inProcessTimes.default!).toFixed(1)} ms | | |`);
console.log('Target: a warm engine\'s conversion inside at most 1.05× outside.');
